//! The hosted test-checkout page speaks the dashboard's five languages. The dashboard
//! sends its language as `Accept-Language`; checkout carries it into the page's URL.

/// Every text of the page and of the card answers, in one language.
pub struct PayText {
    pub code: &'static str,
    pub html_lang: &'static str,
    pub rtl: bool,
    pub title: &'static str,
    pub not_found_title: &'static str,
    pub not_found: &'static str,
    pub test_mode: &'static str,
    pub total: &'static str,
    pub name: &'static str,
    pub number: &'static str,
    pub expiry: &'static str,
    pub cvc: &'static str,
    /// `{total}` is replaced by the amount.
    pub pay: &'static str,
    pub processing: &'static str,
    pub test_cards: &'static str,
    pub succeeds: &'static str,
    pub declined_card: &'static str,
    pub insufficient_card: &'static str,
    pub retry_card: &'static str,
    pub any_future: &'static str,
    /// `{status}` is replaced by the order's status.
    pub closed: &'static str,
    pub back: &'static str,
    pub declined: &'static str,
    pub insufficient: &'static str,
    pub processing_error: &'static str,
    pub expired_checkout: &'static str,
    pub invalid_number: &'static str,
    pub bad_expiry: &'static str,
    pub card_expired: &'static str,
    pub bad_cvc: &'static str,
    pub use_test_card: &'static str,
}

pub const TEXTS: [PayText; 5] = [
    PayText {
        code: "gb",
        html_lang: "en-GB",
        rtl: false,
        title: "Encore checkout",
        not_found_title: "Checkout not found",
        not_found: "This checkout does not exist.",
        test_mode: "Test mode: no real card is charged.",
        total: "Total",
        name: "Name on card",
        number: "Card number",
        expiry: "Expiry",
        cvc: "CVC",
        pay: "Pay {total}",
        processing: "Processing…",
        test_cards: "Test cards",
        succeeds: "succeeds",
        declined_card: "declined",
        insufficient_card: "insufficient funds",
        retry_card: "processing error, try again",
        any_future: "Any future expiry date and any 3-digit CVC.",
        closed: "This checkout is {status}.",
        back: "Back to your cart",
        declined: "Your card was declined. Your cart is unchanged: try another card.",
        insufficient: "Your card has insufficient funds. Your cart is unchanged: try another card.",
        processing_error: "A processing error occurred. Your card was not charged; try again.",
        expired_checkout: "This checkout has expired or is closed. Go back to your cart to start again.",
        invalid_number: "The card number is invalid.",
        bad_expiry: "Enter the expiry date as MM/YY.",
        card_expired: "The card has expired.",
        bad_cvc: "The security code (CVC) is invalid.",
        use_test_card: "This is a test checkout: use a test card such as 4242 4242 4242 4242.",
    },
    PayText {
        code: "br",
        html_lang: "pt-BR",
        rtl: false,
        title: "Pagamento Encore",
        not_found_title: "Pagamento não encontrado",
        not_found: "Este pagamento não existe.",
        test_mode: "Modo de teste: nenhum cartão real é cobrado.",
        total: "Total",
        name: "Nome no cartão",
        number: "Número do cartão",
        expiry: "Validade",
        cvc: "CVC",
        pay: "Pagar {total}",
        processing: "Processando…",
        test_cards: "Cartões de teste",
        succeeds: "aprovado",
        declined_card: "recusado",
        insufficient_card: "saldo insuficiente",
        retry_card: "erro de processamento, tente de novo",
        any_future: "Qualquer validade futura e qualquer CVC de 3 dígitos.",
        closed: "Este pagamento está {status}.",
        back: "Voltar ao carrinho",
        declined: "Seu cartão foi recusado. Seu carrinho continua igual: tente outro cartão.",
        insufficient: "Seu cartão não tem saldo suficiente. Seu carrinho continua igual: tente outro cartão.",
        processing_error: "Ocorreu um erro de processamento. Seu cartão não foi cobrado; tente de novo.",
        expired_checkout: "Este pagamento expirou ou foi encerrado. Volte ao carrinho para recomeçar.",
        invalid_number: "O número do cartão é inválido.",
        bad_expiry: "Informe a validade como MM/AA.",
        card_expired: "O cartão está vencido.",
        bad_cvc: "O código de segurança (CVC) é inválido.",
        use_test_card: "Este é um pagamento de teste: use um cartão de teste como 4242 4242 4242 4242.",
    },
    PayText {
        code: "es",
        html_lang: "es",
        rtl: false,
        title: "Pago de Encore",
        not_found_title: "Pago no encontrado",
        not_found: "Este pago no existe.",
        test_mode: "Modo de prueba: no se cobra ninguna tarjeta real.",
        total: "Total",
        name: "Nombre en la tarjeta",
        number: "Número de tarjeta",
        expiry: "Caducidad",
        cvc: "CVC",
        pay: "Pagar {total}",
        processing: "Procesando…",
        test_cards: "Tarjetas de prueba",
        succeeds: "aprobada",
        declined_card: "rechazada",
        insufficient_card: "fondos insuficientes",
        retry_card: "error de procesamiento, inténtalo de nuevo",
        any_future: "Cualquier fecha de caducidad futura y cualquier CVC de 3 dígitos.",
        closed: "Este pago está {status}.",
        back: "Volver al carrito",
        declined: "Tu tarjeta fue rechazada. Tu carrito no ha cambiado: prueba con otra tarjeta.",
        insufficient: "Tu tarjeta no tiene fondos suficientes. Tu carrito no ha cambiado: prueba con otra tarjeta.",
        processing_error: "Se produjo un error de procesamiento. No se cobró tu tarjeta; inténtalo de nuevo.",
        expired_checkout: "Este pago ha caducado o está cerrado. Vuelve al carrito para empezar de nuevo.",
        invalid_number: "El número de tarjeta no es válido.",
        bad_expiry: "Escribe la caducidad como MM/AA.",
        card_expired: "La tarjeta ha caducado.",
        bad_cvc: "El código de seguridad (CVC) no es válido.",
        use_test_card: "Este es un pago de prueba: usa una tarjeta de prueba como 4242 4242 4242 4242.",
    },
    PayText {
        code: "cn",
        html_lang: "zh-CN",
        rtl: false,
        title: "Encore 结账",
        not_found_title: "找不到结账",
        not_found: "此结账不存在。",
        test_mode: "测试模式：不会从真实银行卡扣款。",
        total: "合计",
        name: "持卡人姓名",
        number: "卡号",
        expiry: "有效期",
        cvc: "安全码",
        pay: "支付 {total}",
        processing: "处理中…",
        test_cards: "测试卡",
        succeeds: "支付成功",
        declined_card: "被拒绝",
        insufficient_card: "余额不足",
        retry_card: "处理出错，请重试",
        any_future: "任意未来的有效期和任意 3 位安全码。",
        closed: "此结账的状态为：{status}。",
        back: "返回购物车",
        declined: "您的银行卡被拒绝。购物车未改变：请换一张卡。",
        insufficient: "您的银行卡余额不足。购物车未改变：请换一张卡。",
        processing_error: "处理时出错。您的卡未被扣款，请重试。",
        expired_checkout: "此结账已过期或已关闭。请返回购物车重新开始。",
        invalid_number: "卡号无效。",
        bad_expiry: "请按 MM/YY 格式填写有效期。",
        card_expired: "该卡已过期。",
        bad_cvc: "安全码（CVC）无效。",
        use_test_card: "这是测试结账：请使用测试卡，例如 4242 4242 4242 4242。",
    },
    PayText {
        code: "ir",
        html_lang: "fa-IR",
        rtl: true,
        title: "پرداخت Encore",
        not_found_title: "پرداخت پیدا نشد",
        not_found: "این پرداخت وجود ندارد.",
        test_mode: "حالت آزمایشی: از هیچ کارت واقعی پولی کسر نمی‌شود.",
        total: "جمع کل",
        name: "نام روی کارت",
        number: "شماره کارت",
        expiry: "تاریخ انقضا",
        cvc: "کد امنیتی",
        pay: "پرداخت {total}",
        processing: "در حال پردازش…",
        test_cards: "کارت‌های آزمایشی",
        succeeds: "موفق",
        declined_card: "رد می‌شود",
        insufficient_card: "موجودی ناکافی",
        retry_card: "خطای پردازش، دوباره تلاش کنید",
        any_future: "هر تاریخ انقضای آینده و هر کد امنیتی سه‌رقمی.",
        closed: "وضعیت این پرداخت: {status}.",
        back: "بازگشت به سبد خرید",
        declined: "کارت شما رد شد. سبد خرید شما تغییری نکرده است: کارت دیگری را امتحان کنید.",
        insufficient: "موجودی کارت شما کافی نیست. سبد خرید شما تغییری نکرده است: کارت دیگری را امتحان کنید.",
        processing_error: "خطایی در پردازش رخ داد. از کارت شما پولی کسر نشد؛ دوباره تلاش کنید.",
        expired_checkout: "این پرداخت منقضی یا بسته شده است. برای شروع دوباره به سبد خرید برگردید.",
        invalid_number: "شماره کارت نامعتبر است.",
        bad_expiry: "تاریخ انقضا را به شکل MM/YY وارد کنید.",
        card_expired: "کارت منقضی شده است.",
        bad_cvc: "کد امنیتی (CVC) نامعتبر است.",
        use_test_card: "این یک پرداخت آزمایشی است: از یک کارت آزمایشی مانند 4242 4242 4242 4242 استفاده کنید.",
    },
];

/// The text set for a language code (`gb`, `br`, `es`, `cn`, `ir`); English otherwise.
pub fn for_code(code: Option<&str>) -> &'static PayText {
    TEXTS
        .iter()
        .find(|t| Some(t.code) == code)
        .unwrap_or(&TEXTS[0])
}

/// Our language code for an `Accept-Language` value (its first tag).
pub fn code_for_accept_language(value: Option<&str>) -> &'static str {
    let tag = value
        .and_then(|v| v.split(',').next())
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    match tag.split(['-', '_']).next().unwrap_or_default() {
        "pt" => "br",
        "es" => "es",
        "zh" => "cn",
        "fa" => "ir",
        _ => "gb",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dashboard_language_picks_the_page_language() {
        assert_eq!(code_for_accept_language(Some("fa-IR")), "ir");
        assert_eq!(code_for_accept_language(Some("pt-BR,pt;q=0.9")), "br");
        assert_eq!(code_for_accept_language(Some("zh-CN")), "cn");
        assert_eq!(code_for_accept_language(None), "gb");
        assert!(for_code(Some("ir")).rtl);
        assert_eq!(for_code(Some("xx")).code, "gb");
    }
}
