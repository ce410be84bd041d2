/** Hand a file the server made to the browser's downloads (an object URL clicked once). */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download by now; the URL is only needed for it.
  setTimeout(() => { URL.revokeObjectURL(url); }, 0);
}
