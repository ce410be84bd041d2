// Applies the saved theme preset and language direction before the app loads (no flash).
(function () {
  try {
    var theme = localStorage.getItem('theme-preset');
    document.documentElement.setAttribute('data-mantine-color-scheme', theme === 'light' ? 'light' : 'dark');
    if (localStorage.getItem('language') === 'ir') {
      document.documentElement.setAttribute('dir', 'rtl');
      document.documentElement.setAttribute('lang', 'fa-IR');
    }
  } catch (e) {
    // storage unavailable: keep the defaults
  }
})();
