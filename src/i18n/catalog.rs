//! Every text the server writes for people, in the five languages. An entry lacking a
//! language does not compile. `{name}` marks a placeholder, filled by [`Text::with`].

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Lang, Zone};

macro_rules! messages {
    ($($name:ident { gb: $gb:literal, br: $br:literal, es: $es:literal, cn: $cn:literal, ir: $ir:literal $(,)? })*) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Msg {
            $($name),*
        }

        impl Msg {
            #[cfg(test)]
            const ALL: &'static [Msg] = &[$(Msg::$name),*];

            /// Its name in the code, which is how a stored text names it.
            pub fn key(self) -> &'static str {
                match self {
                    $(Msg::$name => stringify!($name),)*
                }
            }

            pub fn from_key(key: &str) -> Option<Msg> {
                match key {
                    $(stringify!($name) => Some(Msg::$name),)*
                    _ => None,
                }
            }

            pub fn template(self, lang: Lang) -> &'static str {
                match self {
                    $(Msg::$name => match lang {
                        Lang::English => $gb,
                        Lang::Portuguese => $br,
                        Lang::Spanish => $es,
                        Lang::Chinese => $cn,
                        Lang::Persian => $ir,
                    },)*
                }
            }
        }
    };
}

messages! {
    // The envelope, the router, and failures that are not the client's.
    Internal {
        gb: "Something went wrong on our side. Please try again.",
        br: "Algo deu errado do nosso lado. Tente de novo.",
        es: "Algo ha fallado por nuestra parte. Inténtalo de nuevo.",
        cn: "我们这边出了点问题，请重试。",
        ir: "مشکلی در سمت ما پیش آمد. لطفاً دوباره تلاش کنید.",
    }
    Busy {
        gb: "The server is busy. Try again in a moment.",
        br: "O servidor está ocupado. Tente de novo em instantes.",
        es: "El servidor está ocupado. Inténtalo de nuevo en un momento.",
        cn: "服务器繁忙，请稍后重试。",
        ir: "سرور مشغول است. لحظه‌ای دیگر دوباره تلاش کنید.",
    }
    NotReady {
        gb: "This instance is not ready: {part}.",
        br: "Esta instância não está pronta: {part}.",
        es: "Esta instancia no está lista: {part}.",
        cn: "此实例尚未就绪：{part}。",
        ir: "این نمونه آماده نیست: {part}.",
    }
    MetricsToken {
        gb: "Send the metrics token as a bearer token.",
        br: "Envie o token de métricas como token bearer.",
        es: "Envía el token de métricas como token bearer.",
        cn: "请以 bearer 令牌发送指标令牌。",
        ir: "توکن متریک‌ها را به صورت توکن bearer بفرستید.",
    }
    RateLimited {
        gb: "Too many attempts. Try again in {seconds} seconds.",
        br: "Tentativas demais. Tente de novo em {seconds} segundos.",
        es: "Demasiados intentos. Inténtalo de nuevo en {seconds} segundos.",
        cn: "尝试次数过多，请在 {seconds} 秒后重试。",
        ir: "تلاش‌ها بیش از حد است. {seconds} ثانیهٔ دیگر دوباره تلاش کنید.",
    }
    WebSocketUpgradeExpected {
        gb: "This address speaks WebSocket: open it with a WebSocket upgrade.",
        br: "Este endereço fala WebSocket: abra-o com um upgrade de WebSocket.",
        es: "Esta dirección habla WebSocket: ábrela con una actualización a WebSocket.",
        cn: "此地址使用 WebSocket：请以 WebSocket 升级请求打开。",
        ir: "این نشانی با WebSocket کار می‌کند: آن را با درخواست ارتقا به WebSocket باز کنید.",
    }
    MalformedRequest {
        gb: "This request is malformed.",
        br: "Esta requisição está malformada.",
        es: "Esta solicitud está mal formada.",
        cn: "此请求格式有误。",
        ir: "این درخواست نادرست است.",
    }
    PageTooLarge {
        gb: "The page number is too large.",
        br: "O número da página é grande demais.",
        es: "El número de página es demasiado grande.",
        cn: "页码过大。",
        ir: "شمارهٔ صفحه بیش از حد بزرگ است.",
    }
    BadPeriod {
        gb: "Choose the last 7, 30 or 90 days, or a start before an end at most a year apart.",
        br: "Escolha os últimos 7, 30 ou 90 dias, ou um início antes de um fim com no máximo um ano entre eles.",
        es: "Elige los últimos 7, 30 o 90 días, o un inicio anterior a un final con un año como mucho entre ambos.",
        cn: "请选择最近 7、30 或 90 天，或早于结束时间且相隔不超过一年的开始时间。",
        ir: "۷، ۳۰ یا ۹۰ روز گذشته را برگزینید، یا آغازی پیش از پایان که حداکثر یک سال با آن فاصله داشته باشد.",
    }
    NoSuchEndpoint {
        gb: "No such API endpoint.",
        br: "Este endpoint da API não existe.",
        es: "Este endpoint de la API no existe.",
        cn: "没有这个 API 端点。",
        ir: "چنین نشانی‌ای در API وجود ندارد.",
    }
    MethodNotAllowed {
        gb: "This method is not allowed here.",
        br: "Este método não é permitido aqui.",
        es: "Este método no está permitido aquí.",
        cn: "此处不允许使用该方法。",
        ir: "این روش در اینجا مجاز نیست.",
    }
    BodyTooLarge {
        gb: "The request body is too large.",
        br: "O corpo da requisição é grande demais.",
        es: "El cuerpo de la solicitud es demasiado grande.",
        cn: "请求体过大。",
        ir: "بدنهٔ درخواست بیش از حد بزرگ است.",
    }
    SendJson {
        gb: "Send the body as JSON (Content-Type: application/json).",
        br: "Envie o corpo como JSON (Content-Type: application/json).",
        es: "Envía el cuerpo como JSON (Content-Type: application/json).",
        cn: "请以 JSON 格式发送请求体（Content-Type: application/json）。",
        ir: "بدنه را به صورت JSON بفرستید (Content-Type: application/json).",
    }
    InvalidBody {
        gb: "Invalid request body: {detail}",
        br: "Corpo da requisição inválido: {detail}",
        es: "Cuerpo de la solicitud no válido: {detail}",
        cn: "请求体无效：{detail}",
        ir: "بدنهٔ درخواست نامعتبر است: {detail}",
    }
    MalformedBody {
        gb: "Malformed request body: {detail}",
        br: "Corpo da requisição malformado: {detail}",
        es: "Cuerpo de la solicitud mal formado: {detail}",
        cn: "请求体格式错误：{detail}",
        ir: "بدنهٔ درخواست بدساخت است: {detail}",
    }
    InvalidQuery {
        gb: "Invalid query parameters: {detail}",
        br: "Parâmetros de consulta inválidos: {detail}",
        es: "Parámetros de consulta no válidos: {detail}",
        cn: "查询参数无效：{detail}",
        ir: "پارامترهای پرس‌وجو نامعتبرند: {detail}",
    }
    MalformedUpload {
        gb: "Malformed upload: {detail}",
        br: "Envio malformado: {detail}",
        es: "Subida mal formada: {detail}",
        cn: "上传格式错误：{detail}",
        ir: "بارگذاری بدساخت است: {detail}",
    }
    SendFileField {
        gb: "Send the file in the multipart field \"file\".",
        br: "Envie o arquivo no campo multipart \"file\".",
        es: "Envía el archivo en el campo multipart \"file\".",
        cn: "请在 multipart 字段 \"file\" 中发送文件。",
        ir: "فایل را در فیلد multipart با نام \"file\" بفرستید.",
    }
    ImageTooLarge {
        gb: "The image must be at most {size} MiB.",
        br: "A imagem deve ter no máximo {size} MiB.",
        es: "La imagen debe ocupar como máximo {size} MiB.",
        cn: "图片不能超过 {size} MiB。",
        ir: "حجم تصویر حداکثر باید {size} مبی‌بایت باشد.",
    }
    FileTypeIncorrect {
        gb: "File type is incorrect",
        br: "O tipo de arquivo está incorreto",
        es: "El tipo de archivo no es correcto",
        cn: "文件类型不正确",
        ir: "نوع فایل نادرست است",
    }

    // Sign-in, tokens and clients.
    SignInToContinue {
        gb: "Sign in to continue.",
        br: "Entre para continuar.",
        es: "Inicia sesión para continuar.",
        cn: "请登录后继续。",
        ir: "برای ادامه وارد شوید.",
    }
    SessionEnded {
        gb: "Your session has ended. Please sign in again.",
        br: "Sua sessão terminou. Entre novamente.",
        es: "Tu sesión ha terminado. Vuelve a iniciar sesión.",
        cn: "您的会话已结束，请重新登录。",
        ir: "نشست شما به پایان رسیده است. لطفاً دوباره وارد شوید.",
    }
    AdministratorsOnly {
        gb: "This is for administrators only.",
        br: "Isto é apenas para administradores.",
        es: "Esto es solo para administradores.",
        cn: "仅限管理员使用。",
        ir: "این بخش فقط برای مدیران است.",
    }
    InvalidCredentials {
        gb: "Invalid e-mail or password",
        br: "E-mail ou senha inválidos",
        es: "Correo electrónico o contraseña no válidos",
        cn: "电子邮件或密码无效",
        ir: "ایمیل یا گذرواژه نامعتبر است",
    }
    AccountDisabled {
        gb: "This account is disabled.",
        br: "Esta conta está desativada.",
        es: "Esta cuenta está desactivada.",
        cn: "此账户已停用。",
        ir: "این حساب غیرفعال است.",
    }
    UserExists {
        gb: "User already exists",
        br: "O usuário já existe",
        es: "El usuario ya existe",
        cn: "用户已存在",
        ir: "این کاربر از قبل وجود دارد",
    }
    BadClient {
        gb: "Invalid client credentials.",
        br: "Credenciais de cliente inválidas.",
        es: "Credenciales de cliente no válidas.",
        cn: "客户端凭据无效。",
        ir: "اطلاعات کلاینت نامعتبر است.",
    }
    UnknownClient {
        gb: "Unknown client.",
        br: "Cliente desconhecido.",
        es: "Cliente desconocido.",
        cn: "未知的客户端。",
        ir: "کلاینت ناشناخته است.",
    }
    FieldRequired {
        gb: "The field \"{field}\" is required.",
        br: "O campo \"{field}\" é obrigatório.",
        es: "El campo \"{field}\" es obligatorio.",
        cn: "字段 \"{field}\" 为必填项。",
        ir: "فیلد \"{field}\" الزامی است.",
    }
    UnknownScope {
        gb: "Unknown scope \"{scope}\".",
        br: "Escopo desconhecido \"{scope}\".",
        es: "Ámbito desconocido \"{scope}\".",
        cn: "未知的权限范围 \"{scope}\"。",
        ir: "دامنهٔ دسترسی ناشناخته: \"{scope}\".",
    }
    OnlyS256 {
        gb: "Only the S256 code challenge method is supported.",
        br: "Só o método de code challenge S256 é aceito.",
        es: "Solo se admite el método de code challenge S256.",
        cn: "仅支持 S256 代码质询方法。",
        ir: "فقط روش S256 برای code challenge پشتیبانی می‌شود.",
    }
    BadCodeChallenge {
        gb: "The code challenge must be the base64url SHA-256 of the verifier (43 characters).",
        br: "O code challenge deve ser o SHA-256 em base64url do verifier (43 caracteres).",
        es: "El code challenge debe ser el SHA-256 en base64url del verifier (43 caracteres).",
        cn: "代码质询必须是验证码的 base64url SHA-256 值（43 个字符）。",
        ir: "code challenge باید SHA-256 به صورت base64url از verifier باشد (۴۳ نویسه).",
    }
    RedirectNotRegistered {
        gb: "The redirect_uri is not registered for this client.",
        br: "O redirect_uri não está registrado para este cliente.",
        es: "El redirect_uri no está registrado para este cliente.",
        cn: "该 redirect_uri 未为此客户端注册。",
        ir: "این redirect_uri برای این کلاینت ثبت نشده است.",
    }
    ResponseTypeCode {
        gb: "response_type must be \"code\".",
        br: "response_type deve ser \"code\".",
        es: "response_type debe ser \"code\".",
        cn: "response_type 必须为 \"code\"。",
        ir: "response_type باید \"code\" باشد.",
    }
    ResponseModeQuery {
        gb: "response_mode must be \"query\".",
        br: "response_mode deve ser \"query\".",
        es: "response_mode debe ser \"query\".",
        cn: "response_mode 必须为 \"query\"。",
        ir: "response_mode باید \"query\" باشد.",
    }
    UnsupportedGrant {
        gb: "Unsupported grant_type \"{grant}\": use authorization_code, mfa_code or refresh_token.",
        br: "grant_type \"{grant}\" não suportado: use authorization_code, mfa_code ou refresh_token.",
        es: "grant_type \"{grant}\" no admitido: usa authorization_code, mfa_code o refresh_token.",
        cn: "不支持的 grant_type \"{grant}\"：请使用 authorization_code、mfa_code 或 refresh_token。",
        ir: "grant_type \"{grant}\" پشتیبانی نمی‌شود: از authorization_code، mfa_code یا refresh_token استفاده کنید.",
    }
    CodeAlreadyUsed {
        gb: "This authorization code has already been used.",
        br: "Este código de autorização já foi usado.",
        es: "Este código de autorización ya se ha usado.",
        cn: "此授权码已被使用。",
        ir: "این کد مجوز قبلاً استفاده شده است.",
    }
    InvalidCode {
        gb: "The authorization code is invalid or has expired.",
        br: "O código de autorização é inválido ou expirou.",
        es: "El código de autorización no es válido o ha caducado.",
        cn: "授权码无效或已过期。",
        ir: "کد مجوز نامعتبر است یا منقضی شده است.",
    }
    CodeOtherClient {
        gb: "This authorization code was issued to another client.",
        br: "Este código de autorização foi emitido para outro cliente.",
        es: "Este código de autorización se emitió para otro cliente.",
        cn: "此授权码是颁发给其他客户端的。",
        ir: "این کد مجوز برای کلاینت دیگری صادر شده است.",
    }
    RedirectMismatch {
        gb: "The redirect_uri does not match the authorization request.",
        br: "O redirect_uri não corresponde à solicitação de autorização.",
        es: "El redirect_uri no coincide con la solicitud de autorización.",
        cn: "redirect_uri 与授权请求不一致。",
        ir: "redirect_uri با درخواست مجوز مطابقت ندارد.",
    }
    VerifierMismatch {
        gb: "The code verifier does not match the code challenge.",
        br: "O code verifier não corresponde ao code challenge.",
        es: "El code verifier no coincide con el code challenge.",
        cn: "代码验证码与代码质询不匹配。",
        ir: "code verifier با code challenge مطابقت ندارد.",
    }
    InvalidRefresh {
        gb: "The refresh token is invalid or has expired. Sign in again.",
        br: "O token de atualização é inválido ou expirou. Entre novamente.",
        es: "El token de actualización no es válido o ha caducado. Vuelve a iniciar sesión.",
        cn: "刷新令牌无效或已过期，请重新登录。",
        ir: "توکن تازه‌سازی نامعتبر یا منقضی شده است. دوباره وارد شوید.",
    }
    RefreshReused {
        gb: "This refresh token was already used. For your safety the session has been ended; sign in again.",
        br: "Este token de atualização já foi usado. Para sua segurança, a sessão foi encerrada; entre novamente.",
        es: "Este token de actualización ya se usó. Por tu seguridad, la sesión se ha cerrado; vuelve a iniciar sesión.",
        cn: "此刷新令牌已被使用。为了您的安全，会话已结束，请重新登录。",
        ir: "این توکن تازه‌سازی قبلاً استفاده شده است. برای امنیت شما نشست پایان یافت؛ دوباره وارد شوید.",
    }
    LinkInvalid {
        gb: "This link is invalid or has expired.",
        br: "Este link é inválido ou expirou.",
        es: "Este enlace no es válido o ha caducado.",
        cn: "此链接无效或已过期。",
        ir: "این پیوند نامعتبر است یا منقضی شده است.",
    }

    // E-mail verification.
    VerifyLinkInvalid {
        gb: "This verification link is invalid, has expired or was already used. Sign in and ask for a new one.",
        br: "Este link de verificação é inválido, expirou ou já foi usado. Entre e peça um novo.",
        es: "Este enlace de verificación no es válido, ha caducado o ya se usó. Inicia sesión y pide uno nuevo.",
        cn: "此验证链接无效、已过期或已被使用。请登录后重新获取。",
        ir: "این پیوند تأیید نامعتبر است، منقضی شده یا قبلاً استفاده شده است. وارد شوید و پیوند تازه‌ای بخواهید.",
    }
    EmailAlreadyVerified {
        gb: "Your e-mail address is already verified.",
        br: "Seu endereço de e-mail já foi verificado.",
        es: "Tu dirección de correo ya está verificada.",
        cn: "您的电子邮件地址已验证。",
        ir: "نشانی ایمیل شما قبلاً تأیید شده است.",
    }
    VerifyEmailFirst {
        gb: "Verify your e-mail address first: open the link we sent you. Until then we cannot send you text messages.",
        br: "Verifique primeiro seu endereço de e-mail: abra o link que enviamos a você. Até lá, não podemos enviar SMS para você.",
        es: "Verifica primero tu dirección de correo: abre el enlace que te enviamos. Hasta entonces no podemos enviarte SMS.",
        cn: "请先验证您的电子邮件地址：打开我们发送给您的链接。在此之前，我们无法向您发送短信。",
        ir: "ابتدا نشانی ایمیل خود را تأیید کنید: پیوندی را که برایتان فرستادیم باز کنید. تا آن زمان نمی‌توانیم برایتان پیامک بفرستیم.",
    }

    // The second factor (SMS codes).
    MfaSessionExpired {
        gb: "The second-factor session has expired. Sign in again.",
        br: "A sessão do segundo fator expirou. Entre novamente.",
        es: "La sesión del segundo factor ha caducado. Vuelve a iniciar sesión.",
        cn: "双重验证会话已过期，请重新登录。",
        ir: "نشست عامل دوم منقضی شده است. دوباره وارد شوید.",
    }
    NoCodeSent {
        gb: "No code has been sent yet. Add a phone to receive one.",
        br: "Nenhum código foi enviado ainda. Adicione um telefone para receber um.",
        es: "Aún no se ha enviado ningún código. Añade un teléfono para recibir uno.",
        cn: "尚未发送验证码。请添加手机号以接收验证码。",
        ir: "هنوز کدی فرستاده نشده است. برای دریافت کد، یک تلفن اضافه کنید.",
    }
    SignInCodeExpired {
        gb: "The code has expired. Sign in again to get a new one.",
        br: "O código expirou. Entre novamente para receber outro.",
        es: "El código ha caducado. Vuelve a iniciar sesión para recibir otro.",
        cn: "验证码已过期。请重新登录以获取新验证码。",
        ir: "کد منقضی شده است. برای دریافت کد تازه دوباره وارد شوید.",
    }
    TooManyWrongCodes {
        gb: "Too many wrong codes. Sign in again to get a new one.",
        br: "Códigos errados demais. Entre novamente para receber outro.",
        es: "Demasiados códigos incorrectos. Vuelve a iniciar sesión para recibir otro.",
        cn: "错误的验证码次数过多。请重新登录以获取新验证码。",
        ir: "کدهای نادرست بیش از حد وارد شد. برای دریافت کد تازه دوباره وارد شوید.",
    }
    CodeIncorrectTriesLeft {
        gb: "The code is incorrect. {left} tries left.",
        br: "O código está incorreto. Restam {left} tentativas.",
        es: "El código no es correcto. Quedan {left} intentos.",
        cn: "验证码不正确，还剩 {left} 次机会。",
        ir: "کد نادرست است. {left} تلاش دیگر باقی مانده است.",
    }
    OnlySmsCodes {
        gb: "Only SMS codes are supported: authenticator_types [\"oob\"], oob_channels [\"sms\"].",
        br: "Só códigos por SMS são aceitos: authenticator_types [\"oob\"], oob_channels [\"sms\"].",
        es: "Solo se admiten códigos por SMS: authenticator_types [\"oob\"], oob_channels [\"sms\"].",
        cn: "仅支持短信验证码：authenticator_types [\"oob\"]，oob_channels [\"sms\"]。",
        ir: "فقط کدهای پیامکی پشتیبانی می‌شوند: authenticator_types [\"oob\"]، oob_channels [\"sms\"].",
    }
    PhoneAlreadyEnrolled {
        gb: "A phone is already enrolled. Enter the code sent to it.",
        br: "Já há um telefone cadastrado. Digite o código enviado a ele.",
        es: "Ya hay un teléfono registrado. Introduce el código que se le envió.",
        cn: "已登记了一部手机。请输入发送到该手机的验证码。",
        ir: "یک تلفن از قبل ثبت شده است. کدی را که به آن فرستاده شد وارد کنید.",
    }
    PhoneCodeExpired {
        gb: "The code has expired or was entered wrong too often. Ask for a new one.",
        br: "O código expirou ou foi digitado errado vezes demais. Peça um novo.",
        es: "El código ha caducado o se introdujo mal demasiadas veces. Pide uno nuevo.",
        cn: "验证码已过期或输错次数过多，请重新获取。",
        ir: "کد منقضی شده یا بیش از حد نادرست وارد شده است. کد تازه‌ای بخواهید.",
    }
    CodeIncorrect {
        gb: "The code is incorrect.",
        br: "O código está incorreto.",
        es: "El código no es correcto.",
        cn: "验证码不正确。",
        ir: "کد نادرست است.",
    }

    // Sign-in by QR code.
    QrExpired {
        gb: "This QR code has expired. Show a new one.",
        br: "Este QR code expirou. Mostre um novo.",
        es: "Este código QR ha caducado. Muestra uno nuevo.",
        cn: "此二维码已过期，请显示新的二维码。",
        ir: "این کد QR منقضی شده است. کد تازه‌ای نمایش دهید.",
    }
    QrUsed {
        gb: "This QR sign-in has already been used.",
        br: "Este login por QR code já foi usado.",
        es: "Este inicio de sesión con QR ya se ha usado.",
        cn: "此二维码登录已被使用。",
        ir: "این ورود با QR قبلاً استفاده شده است.",
    }
    QrExpiredOrApproved {
        gb: "This QR code has expired or was already approved.",
        br: "Este QR code expirou ou já foi aprovado.",
        es: "Este código QR ha caducado o ya se aprobó.",
        cn: "此二维码已过期或已被批准。",
        ir: "این کد QR منقضی شده یا قبلاً تأیید شده است.",
    }

    // Accounts.
    AccountNotFound {
        gb: "Account not found.",
        br: "Conta não encontrada.",
        es: "Cuenta no encontrada.",
        cn: "找不到账户。",
        ir: "حساب پیدا نشد.",
    }
    UnknownRole {
        gb: "Unknown role \"{role}\": use user, admin or sa.",
        br: "Função desconhecida \"{role}\": use user, admin ou sa.",
        es: "Rol desconocido \"{role}\": usa user, admin o sa.",
        cn: "未知角色 \"{role}\"：请使用 user、admin 或 sa。",
        ir: "نقش ناشناخته \"{role}\": از user، admin یا sa استفاده کنید.",
    }
    UnknownLanguage {
        gb: "Unknown language \"{code}\": use gb, br, es, cn or ir.",
        br: "Idioma desconhecido \"{code}\": use gb, br, es, cn ou ir.",
        es: "Idioma desconocido \"{code}\": usa gb, br, es, cn o ir.",
        cn: "未知语言 \"{code}\"：请使用 gb、br、es、cn 或 ir。",
        ir: "زبان ناشناخته \"{code}\": از gb، br، es، cn یا ir استفاده کنید.",
    }
    UnknownTheme {
        gb: "Unknown theme \"{code}\": use light or dark.",
        br: "Tema desconhecido \"{code}\": use light ou dark.",
        es: "Tema desconocido \"{code}\": usa light o dark.",
        cn: "未知主题 \"{code}\"：请使用 light 或 dark。",
        ir: "پوستهٔ ناشناخته \"{code}\": از light یا dark استفاده کنید.",
    }
    UnknownStreamQuality {
        gb: "Unknown listening quality \"{code}\": use auto, saver, standard, high or lossless.",
        br: "Qualidade de áudio desconhecida \"{code}\": use auto, saver, standard, high ou lossless.",
        es: "Calidad de audio desconocida \"{code}\": usa auto, saver, standard, high o lossless.",
        cn: "未知音质 \"{code}\"：请使用 auto、saver、standard、high 或 lossless。",
        ir: "کیفیت پخش ناشناخته \"{code}\": از auto، saver، standard، high یا lossless استفاده کنید.",
    }
    UnknownTimeZone {
        gb: "Unknown time zone \"{zone}\": send an IANA name such as Europe/London.",
        br: "Fuso horário desconhecido \"{zone}\": envie um nome IANA como America/Sao_Paulo.",
        es: "Zona horaria desconocida \"{zone}\": envía un nombre IANA como Europe/Madrid.",
        cn: "未知时区 \"{zone}\"：请使用 IANA 名称，例如 Asia/Shanghai。",
        ir: "منطقهٔ زمانی \"{zone}\" شناخته نشد: نامی از فهرست IANA مانند Asia/Tehran بفرستید.",
    }
    InvalidEmail {
        gb: "Enter a valid e-mail address.",
        br: "Digite um endereço de e-mail válido.",
        es: "Introduce una dirección de correo electrónico válida.",
        cn: "请输入有效的电子邮件地址。",
        ir: "یک نشانی ایمیل معتبر وارد کنید.",
    }
    PasswordTooShort {
        gb: "The password must be at least 8 characters long.",
        br: "A senha deve ter pelo menos 8 caracteres.",
        es: "La contraseña debe tener al menos 8 caracteres.",
        cn: "密码至少需要 8 个字符。",
        ir: "گذرواژه باید دست‌کم ۸ نویسه باشد.",
    }
    PasswordTooLong {
        gb: "The password must be at most 128 characters long.",
        br: "A senha deve ter no máximo 128 caracteres.",
        es: "La contraseña debe tener como máximo 128 caracteres.",
        cn: "密码最多 128 个字符。",
        ir: "گذرواژه حداکثر می‌تواند ۱۲۸ نویسه باشد.",
    }
    PasswordTooCommon {
        gb: "This password is too common. Choose one that is harder to guess.",
        br: "Esta senha é comum demais. Escolha uma mais difícil de adivinhar.",
        es: "Esta contraseña es demasiado común. Elige una más difícil de adivinar.",
        cn: "此密码太常见，请选择更难猜到的密码。",
        ir: "این گذرواژه بیش از حد رایج است. گذرواژه‌ای انتخاب کنید که حدس زدنش سخت‌تر باشد.",
    }
    PhoneFormat {
        gb: "Enter the phone number in international form, e.g. +447700900123.",
        br: "Digite o telefone no formato internacional, por exemplo +447700900123.",
        es: "Introduce el teléfono en formato internacional, por ejemplo +447700900123.",
        cn: "请以国际格式输入手机号，例如 +447700900123。",
        ir: "شماره تلفن را در قالب بین‌المللی وارد کنید، برای نمونه ‎+447700900123.",
    }
    CurrentPasswordIncorrect {
        gb: "The current password is incorrect.",
        br: "A senha atual está incorreta.",
        es: "La contraseña actual no es correcta.",
        cn: "当前密码不正确。",
        ir: "گذرواژهٔ فعلی نادرست است.",
    }
    NoPicture {
        gb: "This account has no picture.",
        br: "Esta conta não tem foto.",
        es: "Esta cuenta no tiene foto.",
        cn: "此账户没有头像。",
        ir: "این حساب تصویری ندارد.",
    }
    OnlyAdminsList {
        gb: "Only administrators can list accounts.",
        br: "Só administradores podem listar contas.",
        es: "Solo los administradores pueden ver la lista de cuentas.",
        cn: "只有管理员可以列出账户。",
        ir: "فقط مدیران می‌توانند فهرست حساب‌ها را ببینند.",
    }
    OnlyOwnAccountView {
        gb: "You can only see your own account.",
        br: "Você só pode ver a sua própria conta.",
        es: "Solo puedes ver tu propia cuenta.",
        cn: "您只能查看自己的账户。",
        ir: "فقط می‌توانید حساب خودتان را ببینید.",
    }
    AdminsCannotChangeSa {
        gb: "Administrators cannot change a super admin's account.",
        br: "Administradores não podem alterar a conta de um superadministrador.",
        es: "Los administradores no pueden cambiar la cuenta de un superadministrador.",
        cn: "管理员不能更改超级管理员的账户。",
        ir: "مدیران نمی‌توانند حساب مدیر ارشد را تغییر دهند.",
    }
    OnlyOwnAccountChange {
        gb: "You can only change your own account.",
        br: "Você só pode alterar a sua própria conta.",
        es: "Solo puedes cambiar tu propia cuenta.",
        cn: "您只能更改自己的账户。",
        ir: "فقط می‌توانید حساب خودتان را تغییر دهید.",
    }
    OnlySaCreatesAdmins {
        gb: "Only a super admin can create administrators.",
        br: "Só um superadministrador pode criar administradores.",
        es: "Solo un superadministrador puede crear administradores.",
        cn: "只有超级管理员可以创建管理员。",
        ir: "فقط مدیر ارشد می‌تواند مدیر ایجاد کند.",
    }
    OnlyAdminsCreate {
        gb: "Only administrators can create accounts.",
        br: "Só administradores podem criar contas.",
        es: "Solo los administradores pueden crear cuentas.",
        cn: "只有管理员可以创建账户。",
        ir: "فقط مدیران می‌توانند حساب ایجاد کنند.",
    }
    OnlySaChangesRoles {
        gb: "Only a super admin can change roles.",
        br: "Só um superadministrador pode alterar funções.",
        es: "Solo un superadministrador puede cambiar roles.",
        cn: "只有超级管理员可以更改角色。",
        ir: "فقط مدیر ارشد می‌تواند نقش‌ها را تغییر دهد.",
    }
    CannotChangeOwnRole {
        gb: "You cannot change your own role.",
        br: "Você não pode alterar a sua própria função.",
        es: "No puedes cambiar tu propio rol.",
        cn: "您不能更改自己的角色。",
        ir: "نمی‌توانید نقش خودتان را تغییر دهید.",
    }
    CannotEnableSelf {
        gb: "You cannot disable or enable your own account.",
        br: "Você não pode desativar nem ativar a sua própria conta.",
        es: "No puedes desactivar ni activar tu propia cuenta.",
        cn: "您不能停用或启用自己的账户。",
        ir: "نمی‌توانید حساب خودتان را غیرفعال یا فعال کنید.",
    }
    CannotChangeEnabled {
        gb: "You cannot change whether this account is enabled.",
        br: "Você não pode alterar se esta conta está ativa.",
        es: "No puedes cambiar si esta cuenta está activada.",
        cn: "您不能更改此账户的启用状态。",
        ir: "نمی‌توانید فعال یا غیرفعال بودن این حساب را تغییر دهید.",
    }
    CannotDeleteSelf {
        gb: "You cannot delete your own account.",
        br: "Você não pode excluir a sua própria conta.",
        es: "No puedes eliminar tu propia cuenta.",
        cn: "您不能删除自己的账户。",
        ir: "نمی‌توانید حساب خودتان را حذف کنید.",
    }
    CannotDelete {
        gb: "You cannot delete this account.",
        br: "Você não pode excluir esta conta.",
        es: "No puedes eliminar esta cuenta.",
        cn: "您不能删除此账户。",
        ir: "نمی‌توانید این حساب را حذف کنید.",
    }
    CannotReinvite {
        gb: "You cannot re-invite this account.",
        br: "Você não pode convidar esta conta de novo.",
        es: "No puedes volver a invitar a esta cuenta.",
        cn: "您不能重新邀请此账户。",
        ir: "نمی‌توانید این حساب را دوباره دعوت کنید.",
    }
    OnlyOwner {
        gb: "Only the account's owner can do this.",
        br: "Só o dono da conta pode fazer isso.",
        es: "Solo el titular de la cuenta puede hacer esto.",
        cn: "只有账户本人可以执行此操作。",
        ir: "فقط صاحب حساب می‌تواند این کار را انجام دهد.",
    }
    CannotChangeSecondFactor {
        gb: "You cannot change this account's second factor.",
        br: "Você não pode alterar o segundo fator desta conta.",
        es: "No puedes cambiar el segundo factor de esta cuenta.",
        cn: "您不能更改此账户的双重验证。",
        ir: "نمی‌توانید عامل دوم این حساب را تغییر دهید.",
    }

    // Projects (artists).
    ArtistNotFound {
        gb: "Artist not found.",
        br: "Artista não encontrado.",
        es: "Artista no encontrado.",
        cn: "找不到该艺人。",
        ir: "هنرمند پیدا نشد.",
    }
    NoArtistPicture {
        gb: "This artist has no picture.",
        br: "Este artista não tem foto.",
        es: "Este artista no tiene foto.",
        cn: "该艺人没有图片。",
        ir: "این هنرمند تصویری ندارد.",
    }
    StatementPeriodFormat {
        gb: "A statement covers a month, written like 2026-11.",
        br: "Um extrato cobre um mês, escrito como 2026-11.",
        es: "Un extracto abarca un mes, escrito como 2026-11.",
        cn: "结算单按月计，格式如 2026-11。",
        ir: "هر صورت‌حساب یک ماه را در بر می‌گیرد و به شکل 2026-11 نوشته می‌شود.",
    }
    PlatformFeeFormat {
        gb: "The platform fee is a percentage from 0 to 100 with at most two decimals, such as 7.5.",
        br: "A taxa da plataforma é uma porcentagem de 0 a 100 com no máximo duas casas decimais, como 7.5.",
        es: "La comisión de la plataforma es un porcentaje de 0 a 100 con dos decimales como máximo, como 7.5.",
        cn: "平台费是 0 到 100 之间的百分比，最多两位小数，例如 7.5。",
        ir: "کارمزد سکو درصدی از ۰ تا ۱۰۰ با حداکثر دو رقم اعشار است، مانند 7.5.",
    }
    PayoutAmount {
        gb: "A payout is an amount above zero, in minor units (cents).",
        br: "Um repasse é um valor acima de zero, em centavos.",
        es: "Un pago es un importe mayor que cero, en céntimos.",
        cn: "付款金额须大于零，以最小货币单位（分）计。",
        ir: "مبلغ پرداخت باید بیشتر از صفر و به کوچک‌ترین واحد پول (سنت) باشد.",
    }
    PayoutReferenceTooLong {
        gb: "A payout's reference is at most 200 characters.",
        br: "A referência de um repasse tem no máximo 200 caracteres.",
        es: "La referencia de un pago tiene como máximo 200 caracteres.",
        cn: "付款备注最多 200 个字符。",
        ir: "شرح پرداخت حداکثر ۲۰۰ نویسه است.",
    }
    PayoutAboveOwed {
        gb: "A payout of {amount} is more than the {owed} still owed for {period}.",
        br: "Um repasse de {amount} é mais do que os {owed} ainda devidos de {period}.",
        es: "Un pago de {amount} supera los {owed} que aún se deben de {period}.",
        cn: "付款 {amount} 超过了 {period} 仍欠的 {owed}。",
        ir: "پرداخت {amount} بیشتر از {owed} باقی‌ماندهٔ بدهی {period} است.",
    }
    ConnectOff {
        gb: "Stripe Connect is not configured: staff pay artists by hand to the bank details of their project.",
        br: "O Stripe Connect não está configurado: a equipe paga os artistas manualmente nos dados bancários do projeto.",
        es: "Stripe Connect no está configurado: el equipo paga a los artistas a mano en los datos bancarios de su proyecto.",
        cn: "未配置 Stripe Connect：工作人员按项目的银行信息手动向艺术家付款。",
        ir: "Stripe Connect پیکربندی نشده است: کارکنان مبلغ هنرمندان را به‌صورت دستی به اطلاعات بانکی پروژه‌شان پرداخت می‌کنند.",
    }
    StripeNoAccount {
        gb: "Stripe did not open the payout account. Please try again.",
        br: "O Stripe não abriu a conta de repasses. Tente novamente.",
        es: "Stripe no abrió la cuenta de pagos. Inténtalo de nuevo.",
        cn: "Stripe 未能开设收款账户。请重试。",
        ir: "Stripe حساب دریافت را باز نکرد. لطفاً دوباره تلاش کنید.",
    }
    ProjectNotFound {
        gb: "Project not found.",
        br: "Projeto não encontrado.",
        es: "Proyecto no encontrado.",
        cn: "找不到项目。",
        ir: "پروژه پیدا نشد.",
    }
    NotProjectMember {
        gb: "You are not a member of this project.",
        br: "Você não é membro deste projeto.",
        es: "No eres miembro de este proyecto.",
        cn: "您不是此项目的成员。",
        ir: "شما عضو این پروژه نیستید.",
    }
    ProjectNameLength {
        gb: "A project needs a name of 1 to 120 characters.",
        br: "Um projeto precisa de um nome de 1 a 120 caracteres.",
        es: "Un proyecto necesita un nombre de 1 a 120 caracteres.",
        cn: "项目名称须为 1 到 120 个字符。",
        ir: "پروژه به نامی بین ۱ تا ۱۲۰ نویسه نیاز دارد.",
    }
    ProjectNameTaken {
        gb: "A project with this name already exists.",
        br: "Já existe um projeto com este nome.",
        es: "Ya existe un proyecto con este nombre.",
        cn: "已存在同名项目。",
        ir: "پروژه‌ای با این نام از قبل وجود دارد.",
    }
    ProjectHasConcerts {
        gb: "This project has concerts. Archive it instead of deleting it.",
        br: "Este projeto tem shows. Arquive-o em vez de excluí-lo.",
        es: "Este proyecto tiene conciertos. Archívalo en lugar de eliminarlo.",
        cn: "此项目有音乐会。请将其归档，而不是删除。",
        ir: "این پروژه کنسرت دارد. به جای حذف، آن را بایگانی کنید.",
    }
    NameTheAccount {
        gb: "Name the account: accountId or login.",
        br: "Indique a conta: accountId ou login.",
        es: "Indica la cuenta: accountId o login.",
        cn: "请指明账户：accountId 或 login。",
        ir: "حساب را مشخص کنید: accountId یا login.",
    }

    // Concerts.
    ConcertNotFound {
        gb: "Concert not found.",
        br: "Show não encontrado.",
        es: "Concierto no encontrado.",
        cn: "找不到音乐会。",
        ir: "کنسرت پیدا نشد.",
    }
    OnlyManagersManageConcert {
        gb: "Only administrators and the project's artists manage this concert.",
        br: "Só administradores e os artistas do projeto gerenciam este show.",
        es: "Solo los administradores y los artistas del proyecto gestionan este concierto.",
        cn: "只有管理员和该项目的艺人可以管理这场音乐会。",
        ir: "فقط مدیران و هنرمندان این پروژه این کنسرت را مدیریت می‌کنند.",
    }
    OnlyManagersManageConcerts {
        gb: "Only administrators and project artists manage concerts.",
        br: "Só administradores e artistas de projetos gerenciam shows.",
        es: "Solo los administradores y los artistas de proyectos gestionan conciertos.",
        cn: "只有管理员和项目艺人可以管理音乐会。",
        ir: "فقط مدیران و هنرمندان پروژه‌ها کنسرت‌ها را مدیریت می‌کنند.",
    }
    OnlyManagersCreateConcerts {
        gb: "Only administrators and the project's artists create its concerts.",
        br: "Só administradores e os artistas do projeto criam os shows dele.",
        es: "Solo los administradores y los artistas del proyecto crean sus conciertos.",
        cn: "只有管理员和该项目的艺人可以为其创建音乐会。",
        ir: "فقط مدیران و هنرمندان پروژه کنسرت‌های آن را ایجاد می‌کنند.",
    }
    StartsAtFormat {
        gb: "startsAt must be an ISO 8601 time with a zone, e.g. 2026-12-31T20:00:00Z.",
        br: "startsAt deve ser um horário ISO 8601 com fuso, por exemplo 2026-12-31T20:00:00Z.",
        es: "startsAt debe ser una hora ISO 8601 con zona, por ejemplo 2026-12-31T20:00:00Z.",
        cn: "startsAt 必须是带时区的 ISO 8601 时间，例如 2026-12-31T20:00:00Z。",
        ir: "startsAt باید زمانی به قالب ISO 8601 همراه با منطقهٔ زمانی باشد، برای نمونه 2026-12-31T20:00:00Z.",
    }
    FieldLength {
        gb: "{field} must be 1 to {max} characters.",
        br: "{field} deve ter de 1 a {max} caracteres.",
        es: "{field} debe tener de 1 a {max} caracteres.",
        cn: "{field} 须为 1 到 {max} 个字符。",
        ir: "{field} باید بین ۱ تا {max} نویسه باشد.",
    }
    FieldIsRequired {
        gb: "{field} is required.",
        br: "{field} é obrigatório.",
        es: "{field} es obligatorio.",
        cn: "{field} 为必填项。",
        ir: "{field} الزامی است.",
    }
    DescriptionTooLong {
        gb: "The description is too long (10,000 characters at most).",
        br: "A descrição é longa demais (no máximo 10.000 caracteres).",
        es: "La descripción es demasiado larga (10.000 caracteres como máximo).",
        cn: "描述太长（最多 10,000 个字符）。",
        ir: "توضیحات بیش از حد طولانی است (حداکثر ۱۰٬۰۰۰ نویسه).",
    }
    DurationRange {
        gb: "The duration must be 1 to 1,440 minutes.",
        br: "A duração deve ser de 1 a 1.440 minutos.",
        es: "La duración debe ser de 1 a 1.440 minutos.",
        cn: "时长须为 1 到 1,440 分钟。",
        ir: "مدت باید بین ۱ تا ۱٬۴۴۰ دقیقه باشد.",
    }
    CapacityRange {
        gb: "The capacity must be 1 to 1,000,000, or empty for unlimited.",
        br: "A capacidade deve ser de 1 a 1.000.000, ou vazia para ilimitada.",
        es: "El aforo debe ser de 1 a 1.000.000, o vacío para ilimitado.",
        cn: "容量须为 1 到 1,000,000，留空表示不限。",
        ir: "ظرفیت باید بین ۱ تا ۱٬۰۰۰٬۰۰۰ باشد، یا برای نامحدود خالی بماند.",
    }
    ChooseProject {
        gb: "Choose the project (artist) of the concert.",
        br: "Escolha o projeto (artista) do show.",
        es: "Elige el proyecto (artista) del concierto.",
        cn: "请选择音乐会所属的项目（艺人）。",
        ir: "پروژهٔ (هنرمند) کنسرت را انتخاب کنید.",
    }
    ProjectMissing {
        gb: "That project does not exist.",
        br: "Esse projeto não existe.",
        es: "Ese proyecto no existe.",
        cn: "该项目不存在。",
        ir: "آن پروژه وجود ندارد.",
    }
    PriceRequired {
        gb: "The price is required.",
        br: "O preço é obrigatório.",
        es: "El precio es obligatorio.",
        cn: "价格为必填项。",
        ir: "قیمت الزامی است.",
    }
    CancelledUnchangeable {
        gb: "A cancelled concert cannot be changed.",
        br: "Um show cancelado não pode ser alterado.",
        es: "Un concierto cancelado no se puede cambiar.",
        cn: "已取消的音乐会无法修改。",
        ir: "کنسرت لغوشده قابل تغییر نیست.",
    }
    CannotMoveConcert {
        gb: "You cannot move concerts to that project.",
        br: "Você não pode mover shows para esse projeto.",
        es: "No puedes mover conciertos a ese proyecto.",
        cn: "您不能将音乐会移到该项目。",
        ir: "نمی‌توانید کنسرت‌ها را به آن پروژه منتقل کنید.",
    }
    PriceLocked {
        gb: "Tickets were already sold at this price; the price and currency stay as they are.",
        br: "Já foram vendidos ingressos a este preço; o preço e a moeda continuam como estão.",
        es: "Ya se vendieron entradas a este precio; el precio y la moneda se quedan como están.",
        cn: "已按此价格售出门票，价格和币种保持不变。",
        ir: "بلیت‌هایی با این قیمت فروخته شده است؛ قیمت و واحد پول همان‌طور که هست می‌ماند.",
    }
    CapacityBelowSold {
        gb: "The capacity cannot be lower than the seats already sold or reserved.",
        br: "A capacidade não pode ser menor que os lugares já vendidos ou reservados.",
        es: "El aforo no puede ser menor que las plazas ya vendidas o reservadas.",
        cn: "容量不能低于已售出或已预留的座位数。",
        ir: "ظرفیت نمی‌تواند کمتر از جاهای فروخته‌شده یا رزروشده باشد.",
    }
    StartTooOld {
        gb: "This concert's start is more than 24 hours ago.",
        br: "Este show começou há mais de 24 horas.",
        es: "Este concierto empezó hace más de 24 horas.",
        cn: "这场音乐会的开始时间已超过 24 小时。",
        ir: "بیش از ۲۴ ساعت از شروع این کنسرت گذشته است.",
    }
    OnlyDraftPublished {
        gb: "Only a draft can be published.",
        br: "Só um rascunho pode ser publicado.",
        es: "Solo se puede publicar un borrador.",
        cn: "只有草稿可以发布。",
        ir: "فقط پیش‌نویس را می‌توان منتشر کرد.",
    }
    EndedOrCancelled {
        gb: "This concert has already ended or was cancelled.",
        br: "Este show já terminou ou foi cancelado.",
        es: "Este concierto ya ha terminado o se canceló.",
        cn: "这场音乐会已结束或已取消。",
        ir: "این کنسرت پیش‌تر به پایان رسیده یا لغو شده است.",
    }
    TicketsSoldCancelInstead {
        gb: "Tickets were sold for this concert: cancel it instead, which refunds them.",
        br: "Foram vendidos ingressos para este show: cancele-o, o que os reembolsa.",
        es: "Se vendieron entradas para este concierto: cancélalo, lo que las reembolsa.",
        cn: "这场音乐会已售出门票：请改为取消它，门票将被退款。",
        ir: "برای این کنسرت بلیت فروخته شده است: به جای آن، کنسرت را لغو کنید تا مبلغ بلیت‌ها بازگردانده شود.",
    }
    NoConcertImage {
        gb: "This concert has no image.",
        br: "Este show não tem imagem.",
        es: "Este concierto no tiene imagen.",
        cn: "这场音乐会没有图片。",
        ir: "این کنسرت تصویری ندارد.",
    }
    ConcertCancelled {
        gb: "This concert was cancelled.",
        br: "Este show foi cancelado.",
        es: "Este concierto se canceló.",
        cn: "这场音乐会已取消。",
        ir: "این کنسرت لغو شده است.",
    }
    NotOnSaleYet {
        gb: "This concert is not on sale yet.",
        br: "Este show ainda não está à venda.",
        es: "Este concierto aún no está a la venta.",
        cn: "这场音乐会尚未开售。",
        ir: "این کنسرت هنوز برای فروش عرضه نشده است.",
    }
    SaleWindowClosed {
        gb: "This concert's 24-hour listening window has closed.",
        br: "A janela de 24 horas para ouvir este show terminou.",
        es: "El plazo de 24 horas para escuchar este concierto ha terminado.",
        cn: "这场音乐会的 24 小时收听期已结束。",
        ir: "مهلت ۲۴ ساعتهٔ شنیدن این کنسرت به پایان رسیده است.",
    }
    ConcertSoldOut {
        gb: "This concert is sold out.",
        br: "Os ingressos para este show estão esgotados.",
        es: "Las entradas de este concierto están agotadas.",
        cn: "这场音乐会的门票已售罄。",
        ir: "بلیت‌های این کنسرت تمام شده است.",
    }
    DoorsAlreadyOpen {
        gb: "This concert's doors are already open: there is nothing left to remind you of.",
        br: "As portas deste show já estão abertas: não há mais do que lembrar.",
        es: "Las puertas de este concierto ya están abiertas: ya no hay nada que recordar.",
        cn: "这场音乐会已开放入场，无需再提醒。",
        ir: "درهای این کنسرت پیش‌تر باز شده است: دیگر چیزی برای یادآوری نمانده است.",
    }
    ConcertCancelledRefund {
        gb: "concert cancelled",
        br: "show cancelado",
        es: "concierto cancelado",
        cn: "音乐会已取消",
        ir: "کنسرت لغو شد",
    }

    // Listening.
    ListeningNotOpen {
        gb: "Listening opens 15 minutes before the concert starts.",
        br: "A escuta abre 15 minutos antes do início do show.",
        es: "La escucha se abre 15 minutos antes de que empiece el concierto.",
        cn: "收听将在音乐会开始前 15 分钟开放。",
        ir: "امکان شنیدن ۱۵ دقیقه پیش از شروع کنسرت باز می‌شود.",
    }
    ListeningClosed {
        gb: "The 24-hour listening window of this concert has closed.",
        br: "A janela de 24 horas para ouvir este show terminou.",
        es: "El plazo de 24 horas para escuchar este concierto ha terminado.",
        cn: "这场音乐会的 24 小时收听期已结束。",
        ir: "مهلت ۲۴ ساعتهٔ شنیدن این کنسرت به پایان رسیده است.",
    }
    NeedTicket {
        gb: "You need a ticket for this concert.",
        br: "Você precisa de um ingresso para este show.",
        es: "Necesitas una entrada para este concierto.",
        cn: "您需要这场音乐会的门票。",
        ir: "برای این کنسرت به بلیت نیاز دارید.",
    }
    SetNeedsSession {
        gb: "Open the concert's stage to get your download link.",
        br: "Abra o palco do show para obter seu link de download.",
        es: "Abre el escenario del concierto para obtener tu enlace de descarga.",
        cn: "请打开音乐会的舞台页面以获取下载链接。",
        ir: "برای گرفتن پیوند دانلود، صحنهٔ کنسرت را باز کنید.",
    }
    SetLinkSuperseded {
        gb: "This download link was replaced by a newer listening session. Open the stage again.",
        br: "Este link de download foi substituído por uma sessão de escuta mais recente. Abra o palco de novo.",
        es: "Este enlace de descarga se sustituyó por una sesión de escucha más reciente. Vuelve a abrir el escenario.",
        cn: "此下载链接已被更新的收听会话取代。请重新打开舞台页面。",
        ir: "این پیوند دانلود با نشست شنیدن تازه‌تری جایگزین شده است. صحنه را دوباره باز کنید.",
    }
    SetAfterTheShow {
        gb: "The set can be downloaded once the show has ended.",
        br: "O set pode ser baixado quando o show terminar.",
        es: "El set se puede descargar cuando termine el concierto.",
        cn: "演出结束后才能下载整场录音。",
        ir: "پس از پایان اجرا می‌توانید اجرا را دانلود کنید.",
    }
    SetNotRecorded {
        gb: "Nothing of this concert was recorded.",
        br: "Nada deste show foi gravado.",
        es: "No se grabó nada de este concierto.",
        cn: "这场音乐会没有任何录音。",
        ir: "چیزی از این کنسرت ضبط نشده است.",
    }
    SetNotLossless {
        gb: "This concert was not recorded losslessly: download the .m4a instead.",
        br: "Este show não foi gravado sem perdas: baixe o .m4a.",
        es: "Este concierto no se grabó sin pérdida: descarga el .m4a.",
        cn: "这场音乐会没有无损录音，请下载 .m4a 文件。",
        ir: "این کنسرت بدون افت کیفیت ضبط نشده است: فایل ‎.m4a را دانلود کنید.",
    }
    OnlyManagersSeeThis {
        gb: "Only administrators and the project's artists see this.",
        br: "Só administradores e os artistas do projeto veem isto.",
        es: "Solo los administradores y los artistas del proyecto ven esto.",
        cn: "只有管理员和该项目的艺人可以查看此内容。",
        ir: "فقط مدیران و هنرمندان پروژه این را می‌بینند.",
    }
    OnlyManagersEndShow {
        gb: "Only administrators and the project's artists end a show.",
        br: "Só administradores e os artistas do projeto encerram uma apresentação.",
        es: "Solo los administradores y los artistas del proyecto terminan una actuación.",
        cn: "只有管理员和该项目的艺人可以结束演出。",
        ir: "فقط مدیران و هنرمندان پروژه اجرا را پایان می‌دهند.",
    }

    // The dashboard's live socket.
    LiveChannelUnknown {
        gb: "There is no such live channel.",
        br: "Esse canal ao vivo não existe.",
        es: "Ese canal en directo no existe.",
        cn: "没有这个直播频道。",
        ir: "چنین کانال زنده‌ای وجود ندارد.",
    }
    LiveTooManyConcerts {
        gb: "This connection already follows as many concerts as it may.",
        br: "Esta conexão já acompanha o máximo de shows permitido.",
        es: "Esta conexión ya sigue el máximo de conciertos permitido.",
        cn: "此连接关注的音乐会已达上限。",
        ir: "این اتصال هم‌اکنون بیشترین تعداد مجاز کنسرت را دنبال می‌کند.",
    }

    // Notifications.
    NotificationNotFound {
        gb: "Notification not found.",
        br: "Notificação não encontrada.",
        es: "Notificación no encontrada.",
        cn: "找不到通知。",
        ir: "اعلان پیدا نشد.",
    }

    // Cart, checkout, orders, passes, money.
    TitledReason {
        gb: "{title}: {reason}",
        br: "{title}: {reason}",
        es: "{title}: {reason}",
        cn: "{title}：{reason}",
        ir: "{title}: {reason}",
    }
    AlreadyHaveAccess {
        gb: "You already have access to this concert: it is in My events.",
        br: "Você já tem acesso a este show: ele está em Meus eventos.",
        es: "Ya tienes acceso a este concierto: está en Mis eventos.",
        cn: "您已拥有这场音乐会的访问权限：它在“我的活动”中。",
        ir: "شما از قبل به این کنسرت دسترسی دارید: در «رویدادهای من» است.",
    }
    AlreadyHaveAccessTitled {
        gb: "{title}: you already have access to this concert.",
        br: "{title}: você já tem acesso a este show.",
        es: "{title}: ya tienes acceso a este concierto.",
        cn: "{title}：您已拥有这场音乐会的访问权限。",
        ir: "{title}: شما از قبل به این کنسرت دسترسی دارید.",
    }
    AlreadyHaveTicket {
        gb: "You already have a ticket for this concert.",
        br: "Você já tem um ingresso para este show.",
        es: "Ya tienes una entrada para este concierto.",
        cn: "您已有这场音乐会的门票。",
        ir: "شما از قبل برای این کنسرت بلیت دارید.",
    }
    TicketQuantityRange {
        gb: "Choose between 1 and {max} tickets.",
        br: "Escolha entre 1 e {max} ingressos.",
        es: "Elige entre 1 y {max} entradas.",
        cn: "请选择 1 到 {max} 张门票。",
        ir: "بین ۱ تا {max} بلیت انتخاب کنید.",
    }
    FewSeatsLeft {
        gb: "Only {count} tickets are left.",
        br: "Restam apenas {count} ingressos.",
        es: "Solo quedan {count} entradas.",
        cn: "只剩 {count} 张门票。",
        ir: "فقط {count} بلیت باقی مانده است.",
    }
    ConcertNotInCart {
        gb: "This concert is not in your cart.",
        br: "Este show não está no seu carrinho.",
        es: "Este concierto no está en tu carrito.",
        cn: "这场音乐会不在您的购物车中。",
        ir: "این کنسرت در سبد خرید شما نیست.",
    }
    SpareKeepHeld {
        gb: "You already hold your own ticket for this concert: give this spare one instead.",
        br: "Você já tem seu próprio ingresso para este show: presenteie este ingresso extra.",
        es: "Ya tienes tu propia entrada para este concierto: regala esta entrada de sobra.",
        cn: "您已持有这场音乐会自己的门票：请把这张备用票赠送他人。",
        ir: "شما از قبل بلیت خودتان را برای این کنسرت دارید: این بلیت اضافه را هدیه دهید.",
    }
    PassNotOnSale {
        gb: "This pass is not on sale.",
        br: "Este passe não está à venda.",
        es: "Este abono no está a la venta.",
        cn: "此通票不在售。",
        ir: "این اشتراک برای فروش عرضه نشده است.",
    }
    CartEmpty {
        gb: "Your cart is empty.",
        br: "Seu carrinho está vazio.",
        es: "Tu carrito está vacío.",
        cn: "您的购物车是空的。",
        ir: "سبد خرید شما خالی است.",
    }
    CartConcertGone {
        gb: "A concert in your cart no longer exists.",
        br: "Um show do seu carrinho não existe mais.",
        es: "Un concierto de tu carrito ya no existe.",
        cn: "购物车中的一场音乐会已不存在。",
        ir: "یکی از کنسرت‌های سبد خرید شما دیگر وجود ندارد.",
    }
    CartPassGone {
        gb: "A pass in your cart is no longer on sale.",
        br: "Um passe do seu carrinho não está mais à venda.",
        es: "Un abono de tu carrito ya no está a la venta.",
        cn: "购物车中的一张通票已停售。",
        ir: "یکی از اشتراک‌های سبد خرید شما دیگر فروخته نمی‌شود.",
    }
    MixedCurrencies {
        gb: "Your cart mixes currencies: check out the items of one currency at a time.",
        br: "Seu carrinho mistura moedas: finalize a compra dos itens de uma moeda por vez.",
        es: "Tu carrito mezcla monedas: paga los artículos de una moneda cada vez.",
        cn: "您的购物车包含多种币种：请每次只结算同一币种的商品。",
        ir: "سبد خرید شما چند واحد پول دارد: هر بار اقلام یک واحد پول را پرداخت کنید.",
    }
    SoldOut {
        gb: "Sold out: {title}",
        br: "Esgotado: {title}",
        es: "Agotado: {title}",
        cn: "已售罄：{title}",
        ir: "تمام شد: {title}",
    }
    SoldOutBeforePayment {
        gb: "Sold out: {title} sold out before the payment arrived; it will be refunded.",
        br: "Esgotado: {title} esgotou antes de o pagamento chegar; ele será reembolsado.",
        es: "Agotado: {title} se agotó antes de que llegara el pago; se reembolsará.",
        cn: "已售罄：{title} 在付款到账前已售罄，款项将被退还。",
        ir: "تمام شد: بلیت‌های {title} پیش از رسیدن پرداخت تمام شد؛ مبلغ بازگردانده می‌شود.",
    }
    // Promo codes.
    PromoCodeNotFound {
        gb: "This promo code does not exist.",
        br: "Este código promocional não existe.",
        es: "Este código promocional no existe.",
        cn: "该优惠码不存在。",
        ir: "این کد تخفیف وجود ندارد.",
    }
    PromoCodeNotYetValid {
        gb: "This promo code is not valid yet.",
        br: "Este código promocional ainda não é válido.",
        es: "Este código promocional aún no es válido.",
        cn: "该优惠码尚未生效。",
        ir: "این کد تخفیف هنوز معتبر نیست.",
    }
    PromoCodeExpired {
        gb: "This promo code has expired.",
        br: "Este código promocional expirou.",
        es: "Este código promocional ha caducado.",
        cn: "该优惠码已过期。",
        ir: "مهلت این کد تخفیف تمام شده است.",
    }
    PromoCodeUsedUp {
        gb: "This promo code has been used as many times as it may be.",
        br: "Este código promocional já foi usado o máximo de vezes permitido.",
        es: "Este código promocional ya se ha usado todas las veces permitidas.",
        cn: "该优惠码的使用次数已达上限。",
        ir: "این کد تخفیف به تعداد مجاز استفاده شده است.",
    }
    PromoCodeAccountLimit {
        gb: "You have used this promo code as many times as one account may.",
        br: "Você já usou este código promocional o máximo de vezes permitido por conta.",
        es: "Ya has usado este código promocional todas las veces permitidas por cuenta.",
        cn: "您的账户已达到该优惠码的使用上限。",
        ir: "شما از این کد تخفیف به تعداد مجاز برای هر حساب استفاده کرده‌اید.",
    }
    PromoCodeNotApplicable {
        gb: "This promo code does not apply to anything in your cart.",
        br: "Este código promocional não se aplica a nada no seu carrinho.",
        es: "Este código promocional no se aplica a nada de tu carrito.",
        cn: "该优惠码不适用于购物车中的任何商品。",
        ir: "این کد تخفیف شامل هیچ‌یک از اقلام سبد خرید شما نمی‌شود.",
    }
    PromoCodeFormat {
        gb: "A promo code is 3 to 40 letters, digits, dashes or underscores.",
        br: "Um código promocional tem de 3 a 40 letras, dígitos, hífens ou sublinhados.",
        es: "Un código promocional tiene de 3 a 40 letras, dígitos, guiones o guiones bajos.",
        cn: "优惠码由 3 到 40 个字母、数字、连字符或下划线组成。",
        ir: "کد تخفیف ۳ تا ۴۰ حرف لاتین، رقم، خط تیره یا زیرخط است.",
    }
    PromoCodeTaken {
        gb: "Another promo code is already called that.",
        br: "Já existe outro código promocional com esse nome.",
        es: "Ya existe otro código promocional con ese nombre.",
        cn: "已有同名的优惠码。",
        ir: "کد تخفیف دیگری با همین نام وجود دارد.",
    }
    PromoCodeValue {
        gb: "A percentage is from 1 to 100; an amount is from 0.01, with its currency.",
        br: "Uma porcentagem vai de 1 a 100; um valor, a partir de 0,01, com sua moeda.",
        es: "Un porcentaje va de 1 a 100; un importe, desde 0,01, con su moneda.",
        cn: "百分比为 1 到 100；金额至少为 0.01 并注明币种。",
        ir: "درصد از ۱ تا ۱۰۰ است؛ مبلغ از ۰٫۰۱ همراه با واحد پولش.",
    }
    PromoCodeTiers {
        gb: "A code that unlocks tiers names one or more hidden ticket tiers of its concerts.",
        br: "Um código que libera categorias indica uma ou mais categorias ocultas dos seus shows.",
        es: "Un código que desbloquea tipos de entrada indica uno o más tipos ocultos de sus conciertos.",
        cn: "解锁票档的优惠码须指定其演出的一个或多个隐藏票档。",
        ir: "کدی که رده‌ها را باز می‌کند باید یک یا چند ردهٔ پنهان بلیت از کنسرت‌هایش را نام ببرد.",
    }
    PromoCodeLimits {
        gb: "Use limits are from 1, never below the uses already taken, and a code's validity starts before it ends.",
        br: "Os limites de uso começam em 1, nunca abaixo dos usos já feitos, e a validade de um código começa antes de terminar.",
        es: "Los límites de uso empiezan en 1, nunca por debajo de los usos ya hechos, y la validez de un código empieza antes de terminar.",
        cn: "使用上限至少为 1，且不低于已使用次数；有效期的开始须早于结束。",
        ir: "سقف استفاده از ۱ است و هرگز کمتر از استفاده‌های انجام‌شده نیست، و اعتبار کد پیش از پایانش آغاز می‌شود.",
    }
    PromoCodeChanged {
        gb: "This promo code changed while you were checking out. Please look at your cart and try again.",
        br: "Este código promocional mudou enquanto você finalizava a compra. Confira o carrinho e tente de novo.",
        es: "Este código promocional cambió mientras pagabas. Revisa tu carrito e inténtalo de nuevo.",
        cn: "结账期间该优惠码发生了变化。请查看购物车后重试。",
        ir: "این کد تخفیف هنگام پرداخت شما تغییر کرد. لطفاً سبد خرید را ببینید و دوباره تلاش کنید.",
    }
    ReceiptPromoLine {
        gb: "Promo code {code}: −{amount}",
        br: "Código promocional {code}: −{amount}",
        es: "Código promocional {code}: −{amount}",
        cn: "优惠码 {code}：−{amount}",
        ir: "کد تخفیف {code}: −{amount}",
    }
    PromoCodeUsedUpBeforePayment {
        gb: "The promo code {code} was used up before the payment arrived; it will be refunded.",
        br: "O código promocional {code} se esgotou antes de o pagamento chegar; ele será reembolsado.",
        es: "El código promocional {code} se agotó antes de que llegara el pago; se reembolsará.",
        cn: "优惠码 {code} 在付款到账前已用完，款项将被退还。",
        ir: "کد تخفیف {code} پیش از رسیدن پرداخت تمام شد؛ مبلغ بازگردانده می‌شود.",
    }
    // Ticket tiers.
    TierNotFound {
        gb: "Ticket tier not found.",
        br: "Categoria de ingresso não encontrada.",
        es: "Tipo de entrada no encontrado.",
        cn: "找不到该票档。",
        ir: "ردهٔ بلیت پیدا نشد.",
    }
    TierNotOnSale {
        gb: "This ticket tier is not on sale.",
        br: "Esta categoria de ingresso não está à venda.",
        es: "Este tipo de entrada no está a la venta.",
        cn: "该票档不在售。",
        ir: "این ردهٔ بلیت برای فروش عرضه نشده است.",
    }
    TierNotOnSaleYet {
        gb: "Sales of this ticket tier have not opened yet.",
        br: "As vendas desta categoria de ingresso ainda não abriram.",
        es: "La venta de este tipo de entrada aún no ha empezado.",
        cn: "该票档尚未开售。",
        ir: "فروش این ردهٔ بلیت هنوز آغاز نشده است.",
    }
    TierSaleClosed {
        gb: "Sales of this ticket tier have closed.",
        br: "As vendas desta categoria de ingresso foram encerradas.",
        es: "La venta de este tipo de entrada ha terminado.",
        cn: "该票档已停止销售。",
        ir: "فروش این ردهٔ بلیت به پایان رسیده است.",
    }
    TierSoldOut {
        gb: "This ticket tier is sold out.",
        br: "Esta categoria de ingresso está esgotada.",
        es: "Este tipo de entrada está agotado.",
        cn: "该票档已售罄。",
        ir: "بلیت‌های این رده تمام شده است.",
    }
    TierFixedPrice {
        gb: "This ticket tier has a fixed price: you cannot choose the amount.",
        br: "Esta categoria de ingresso tem preço fixo: não é possível escolher o valor.",
        es: "Este tipo de entrada tiene un precio fijo: no puedes elegir el importe.",
        cn: "该票档价格固定，不能自选金额。",
        ir: "این ردهٔ بلیت قیمت ثابت دارد: نمی‌توانید مبلغ را خودتان انتخاب کنید.",
    }
    AmountBelowMinimum {
        gb: "The amount must be at least {minimum} for this ticket tier.",
        br: "O valor deve ser de pelo menos {minimum} para esta categoria de ingresso.",
        es: "El importe debe ser de al menos {minimum} para este tipo de entrada.",
        cn: "该票档的金额至少为 {minimum}。",
        ir: "مبلغ برای این ردهٔ بلیت باید دست‌کم {minimum} باشد.",
    }
    MinimumAboveSuggested {
        gb: "A pay-what-you-want tier's minimum cannot be above its suggested price.",
        br: "O mínimo de uma categoria \"pague quanto quiser\" não pode passar o preço sugerido.",
        es: "El mínimo de un tipo \"paga lo que quieras\" no puede superar su precio sugerido.",
        cn: "自选价格票档的最低价不能高于建议价。",
        ir: "حداقل مبلغِ ردهٔ «هر چه می‌خواهید بپردازید» نمی‌تواند از قیمت پیشنهادی‌اش بیشتر باشد.",
    }
    TierNameLength {
        gb: "A ticket tier needs a name of 1 to 120 characters.",
        br: "Uma categoria de ingresso precisa de um nome de 1 a 120 caracteres.",
        es: "Un tipo de entrada necesita un nombre de 1 a 120 caracteres.",
        cn: "票档名称须为 1 到 120 个字符。",
        ir: "ردهٔ بلیت به نامی بین ۱ تا ۱۲۰ نویسه نیاز دارد.",
    }
    TierDescriptionTooLong {
        gb: "A ticket tier's description is too long (2,000 characters at most).",
        br: "A descrição da categoria de ingresso é longa demais (no máximo 2.000 caracteres).",
        es: "La descripción del tipo de entrada es demasiado larga (2.000 caracteres como máximo).",
        cn: "票档描述太长（最多 2,000 个字符）。",
        ir: "توضیحات ردهٔ بلیت بیش از حد طولانی است (حداکثر ۲٬۰۰۰ نویسه).",
    }
    TierCapacityAboveConcert {
        gb: "A ticket tier's capacity cannot be above the concert's ({capacity}).",
        br: "A capacidade de uma categoria de ingresso não pode passar a do show ({capacity}).",
        es: "El aforo de un tipo de entrada no puede superar el del concierto ({capacity}).",
        cn: "票档的容量不能超过音乐会的容量（{capacity}）。",
        ir: "ظرفیت ردهٔ بلیت نمی‌تواند بیشتر از ظرفیت کنسرت ({capacity}) باشد.",
    }
    TierWindowOrder {
        gb: "A ticket tier's sales must open before they close.",
        br: "As vendas de uma categoria de ingresso devem abrir antes de fechar.",
        es: "La venta de un tipo de entrada debe empezar antes de terminar.",
        cn: "票档的开售时间必须早于停售时间。",
        ir: "فروش ردهٔ بلیت باید پیش از پایانش آغاز شود.",
    }
    TierTimeFormat {
        gb: "saleOpensAt and saleClosesAt must be ISO 8601 times with a time zone before the year 9999, e.g. 2026-12-31T20:00:00Z.",
        br: "saleOpensAt e saleClosesAt devem ser horários ISO 8601 com fuso horário, antes do ano 9999, por exemplo 2026-12-31T20:00:00Z.",
        es: "saleOpensAt y saleClosesAt deben ser horas ISO 8601 con zona horaria, anteriores al año 9999, por ejemplo 2026-12-31T20:00:00Z.",
        cn: "saleOpensAt 和 saleClosesAt 必须是带时区、早于 9999 年的 ISO 8601 时间，例如 2026-12-31T20:00:00Z。",
        ir: "saleOpensAt و saleClosesAt باید زمان‌هایی به قالب ISO 8601 همراه با منطقهٔ زمانی و پیش از سال 9999 باشند، برای نمونه 2026-12-31T20:00:00Z.",
    }
    TierPositionRange {
        gb: "A ticket tier's position must be 0 to 1,000.",
        br: "A posição de uma categoria de ingresso deve ser de 0 a 1.000.",
        es: "La posición de un tipo de entrada debe ser de 0 a 1.000.",
        cn: "票档的位置须为 0 到 1,000。",
        ir: "جایگاه ردهٔ بلیت باید بین ۰ تا ۱٬۰۰۰ باشد.",
    }
    DefaultTierStays {
        gb: "This is the concert's default ticket tier: make another tier the default first.",
        br: "Esta é a categoria de ingresso padrão do show: torne outra categoria a padrão primeiro.",
        es: "Este es el tipo de entrada predeterminado del concierto: haz predeterminado otro tipo primero.",
        cn: "这是音乐会的默认票档：请先将另一个票档设为默认。",
        ir: "این ردهٔ بلیت پیش‌فرض کنسرت است: نخست ردهٔ دیگری را پیش‌فرض کنید.",
    }
    DefaultTierHidden {
        gb: "The default ticket tier cannot be hidden.",
        br: "A categoria de ingresso padrão não pode ficar oculta.",
        es: "El tipo de entrada predeterminado no puede estar oculto.",
        cn: "默认票档不能隐藏。",
        ir: "ردهٔ بلیت پیش‌فرض را نمی‌توان پنهان کرد.",
    }
    LastTierStays {
        gb: "A concert sells through at least one ticket tier: its last one cannot be deleted.",
        br: "Um show vende por pelo menos uma categoria de ingresso: a última não pode ser excluída.",
        es: "Un concierto se vende con al menos un tipo de entrada: el último no se puede eliminar.",
        cn: "音乐会至少需要一个票档：最后一个票档不能删除。",
        ir: "کنسرت دست‌کم با یک ردهٔ بلیت فروخته می‌شود: آخرین رده را نمی‌توان حذف کرد.",
    }
    TierHasSales {
        gb: "Tickets of this tier were sold or are being paid for: hide it instead of deleting it.",
        br: "Ingressos desta categoria foram vendidos ou estão sendo pagos: oculte-a em vez de excluí-la.",
        es: "Se vendieron entradas de este tipo o se están pagando: ocúltalo en lugar de eliminarlo.",
        cn: "该票档已有售出或正在付款的门票：请隐藏它，而不是删除。",
        ir: "بلیت‌های این رده فروخته شده یا در حال پرداخت است: به جای حذف، آن را پنهان کنید.",
    }
    TierPriceLocked {
        gb: "Tickets of this tier were already sold at this price; its price stays as it is.",
        br: "Já foram vendidos ingressos desta categoria a este preço; o preço continua como está.",
        es: "Ya se vendieron entradas de este tipo a este precio; su precio se queda como está.",
        cn: "该票档已按此价格售出门票，价格保持不变。",
        ir: "بلیت‌های این رده با این قیمت فروخته شده است؛ قیمت آن همان‌طور که هست می‌ماند.",
    }
    TooManyTiers {
        gb: "A concert has at most {max} ticket tiers.",
        br: "Um show tem no máximo {max} categorias de ingresso.",
        es: "Un concierto tiene como máximo {max} tipos de entrada.",
        cn: "一场音乐会最多有 {max} 个票档。",
        ir: "هر کنسرت حداکثر {max} ردهٔ بلیت دارد.",
    }
    // Tickets as gifts.
    TicketNotFound {
        gb: "You hold no such ticket (it may have been given, refunded or claimed).",
        br: "Você não tem este ingresso (ele pode ter sido dado, reembolsado ou resgatado).",
        es: "No tienes esta entrada (puede que se haya regalado, reembolsado o reclamado).",
        cn: "您没有这张门票（它可能已被赠送、退款或领取）。",
        ir: "چنین بلیتی ندارید (ممکن است هدیه داده، بازپرداخت یا دریافت شده باشد).",
    }
    GiftNotFound {
        gb: "No such pending gift of yours.",
        br: "Você não tem nenhum presente pendente assim.",
        es: "No tienes ningún regalo pendiente así.",
        cn: "找不到您的这份待领取礼物。",
        ir: "چنین هدیهٔ در انتظاری از شما پیدا نشد.",
    }
    GiftNotPending {
        gb: "This gift was claimed or taken back meanwhile.",
        br: "Este presente foi resgatado ou retirado nesse meio-tempo.",
        es: "Este regalo se reclamó o se retiró mientras tanto.",
        cn: "这份礼物在此期间已被领取或收回。",
        ir: "این هدیه در این فاصله دریافت یا پس گرفته شد.",
    }
    GiftListenedWith {
        gb: "You have listened with this ticket: a ticket listened with cannot be given or passed on.",
        br: "Você já ouviu com este ingresso: um ingresso já usado para ouvir não pode ser dado nem repassado.",
        es: "Ya has escuchado con esta entrada: una entrada usada para escuchar no se puede regalar ni pasar a otra persona.",
        cn: "您已用这张门票收听过：收听过的门票不能赠送或转让。",
        ir: "با این بلیت گوش داده‌اید: بلیتی که با آن گوش داده شده را نمی‌توان هدیه داد یا به دیگری سپرد.",
    }
    GiftWindowOver {
        gb: "This concert's listening window is over: its ticket can no longer be given or claimed.",
        br: "A janela para ouvir este show terminou: o ingresso não pode mais ser dado nem resgatado.",
        es: "El plazo para escuchar este concierto ha terminado: su entrada ya no se puede regalar ni reclamar.",
        cn: "这场音乐会的收听时段已结束：其门票不能再赠送或领取。",
        ir: "زمان گوش دادن به این کنسرت تمام شده است: بلیت آن دیگر قابل هدیه دادن یا دریافت نیست.",
    }
    GiftShowStarted {
        gb: "The show has started: a gift can no longer be taken back. It stays claimable until the listening window ends.",
        br: "O show já começou: o presente não pode mais ser retirado. Ele pode ser resgatado até o fim da janela para ouvir.",
        es: "El concierto ya empezó: el regalo ya no se puede retirar. Se puede reclamar hasta que termine el plazo para escuchar.",
        cn: "演出已开始：礼物不能再收回。在收听时段结束前仍可领取。",
        ir: "اجرا شروع شده است: دیگر نمی‌توان هدیه را پس گرفت. تا پایان زمان گوش دادن قابل دریافت است.",
    }
    GiftTakeBackHeld {
        gb: "You hold another ticket to this concert now, so this one cannot come back to you: re-send the gift or let it be claimed.",
        br: "Você já tem outro ingresso para este show, então este não pode voltar para você: reenvie o presente ou deixe que seja resgatado.",
        es: "Ya tienes otra entrada para este concierto, así que esta no puede volver a ti: reenvía el regalo o deja que lo reclamen.",
        cn: "您现在已有这场音乐会的另一张门票，因此这张无法退回给您：请重新发送礼物或等待对方领取。",
        ir: "اکنون بلیت دیگری برای این کنسرت دارید، پس این بلیت نمی‌تواند به شما برگردد: هدیه را دوباره بفرستید یا بگذارید دریافت شود.",
    }
    GiftLinkInvalid {
        gb: "This gift link no longer works: it was claimed, taken back or sent again, or the ticket was refunded.",
        br: "Este link de presente não funciona mais: ele foi resgatado, retirado ou reenviado, ou o ingresso foi reembolsado.",
        es: "Este enlace de regalo ya no funciona: se reclamó, se retiró o se volvió a enviar, o la entrada se reembolsó.",
        cn: "此礼物链接已失效：礼物已被领取、收回或重新发送，或门票已退款。",
        ir: "این پیوند هدیه دیگر کار نمی‌کند: دریافت، پس گرفته یا دوباره فرستاده شده، یا بلیت بازپرداخت شده است.",
    }
    GiftOwn {
        gb: "This is your own gift: take it back from My tickets instead.",
        br: "Este presente é seu: retire-o em Meus ingressos.",
        es: "Este regalo es tuyo: retíralo desde Mis entradas.",
        cn: "这是您自己送出的礼物：请在“我的门票”中收回。",
        ir: "این هدیهٔ خود شماست: به جای آن، از «بلیت‌های من» پسش بگیرید.",
    }
    GiftAlreadyHeld {
        gb: "You already hold a ticket to {title}, so this gift cannot be yours too.",
        br: "Você já tem um ingresso para {title}, então este presente não pode ser seu também.",
        es: "Ya tienes una entrada para {title}, así que este regalo no puede ser tuyo también.",
        cn: "您已有《{title}》的门票，因此不能再领取这份礼物。",
        ir: "شما از قبل بلیت «{title}» را دارید، پس این هدیه نمی‌تواند مال شما هم باشد.",
    }
    GiftEmailSubject {
        gb: "{name} gave you a ticket to {title}",
        br: "{name} deu a você um ingresso para {title}",
        es: "{name} te ha regalado una entrada para {title}",
        cn: "{name} 送给您一张《{title}》的门票",
        ir: "{name} بلیت «{title}» را به شما هدیه داد",
    }
    GiftEmailBody {
        gb: "Hello,\n\n{name} gave you a ticket to {title} by {artist} on Encore. Open this link, sign up or sign in, and the ticket is yours:\n\n{link}\n\nThe link works once.\n",
        br: "Olá,\n\n{name} deu a você um ingresso para {title}, de {artist}, no Encore. Abra este link, cadastre-se ou entre, e o ingresso é seu:\n\n{link}\n\nO link funciona uma vez.\n",
        es: "Hola:\n\n{name} te ha regalado una entrada para {title}, de {artist}, en Encore. Abre este enlace, regístrate o inicia sesión, y la entrada será tuya:\n\n{link}\n\nEl enlace funciona una sola vez.\n",
        cn: "您好：\n\n{name} 在 Encore 上送给您一张 {artist} 的《{title}》门票。打开此链接，注册或登录，门票就是您的了：\n\n{link}\n\n此链接只能使用一次。\n",
        ir: "سلام،\n\n{name} بلیت «{title}» از {artist} را در Encore به شما هدیه داد. این پیوند را باز کنید، ثبت‌نام کنید یا وارد شوید، و بلیت مال شماست:\n\n{link}\n\nاین پیوند فقط یک بار کار می‌کند.\n",
    }
    NoticeGiftClaimedTitle {
        gb: "Your gift for {title} was claimed",
        br: "Seu presente para {title} foi resgatado",
        es: "Tu regalo para {title} fue reclamado",
        cn: "您赠送的《{title}》门票已被领取",
        ir: "هدیهٔ شما برای «{title}» دریافت شد",
    }
    NoticeGiftClaimedBody {
        gb: "{name} now holds your ticket to {title}.",
        br: "{name} agora tem o seu ingresso para {title}.",
        es: "{name} tiene ahora tu entrada para {title}.",
        cn: "{name} 现已持有您赠送的《{title}》门票。",
        ir: "اکنون {name} بلیت شما برای «{title}» را دارد.",
    }
    OrderNotFound {
        gb: "Order not found.",
        br: "Pedido não encontrado.",
        es: "Pedido no encontrado.",
        cn: "找不到订单。",
        ir: "سفارش پیدا نشد.",
    }
    OnlyFulfilledRefund {
        gb: "Only a complete order can be refunded (this one: {status}).",
        br: "Só um pedido concluído pode ser reembolsado (este: {status}).",
        es: "Solo se puede reembolsar un pedido completado (este: {status}).",
        cn: "只有已完成的订单可以退款（此订单：{status}）。",
        ir: "فقط سفارش تکمیل‌شده قابل بازپرداخت است (این سفارش: {status}).",
    }
    AlreadyRefunded {
        gb: "This order was refunded already.",
        br: "Este pedido já foi reembolsado.",
        es: "Este pedido ya se reembolsó.",
        cn: "此订单已退款。",
        ir: "مبلغ این سفارش قبلاً بازگردانده شده است.",
    }
    RefundInStripe {
        gb: "This order was paid through Stripe, which is not configured now: refund it in Stripe.",
        br: "Este pedido foi pago pelo Stripe, que não está configurado agora: reembolse-o no Stripe.",
        es: "Este pedido se pagó con Stripe, que ahora no está configurado: reembólsalo en Stripe.",
        cn: "此订单通过 Stripe 支付，但 Stripe 现在未配置：请在 Stripe 中退款。",
        ir: "این سفارش از طریق Stripe پرداخت شده که اکنون پیکربندی نشده است: بازپرداخت را در Stripe انجام دهید.",
    }
    CheckoutInProgress {
        gb: "Another checkout of yours is in progress: finish it, or try again in a moment.",
        br: "Você já tem outro pagamento em andamento: conclua-o ou tente de novo em instantes.",
        es: "Tienes otro pago en curso: termínalo o inténtalo de nuevo en un momento.",
        cn: "您有另一个结账正在进行中：请先完成它，或稍后再试。",
        ir: "پرداخت دیگری از شما در جریان است: آن را تمام کنید یا لحظه‌ای دیگر دوباره تلاش کنید.",
    }
    PaymentsOff {
        gb: "Payments are not configured on this server yet. Please try again later.",
        br: "Os pagamentos ainda não estão configurados neste servidor. Tente de novo mais tarde.",
        es: "Los pagos aún no están configurados en este servidor. Inténtalo de nuevo más tarde.",
        cn: "此服务器尚未配置支付功能，请稍后再试。",
        ir: "پرداخت هنوز روی این سرور پیکربندی نشده است. لطفاً بعداً دوباره تلاش کنید.",
    }
    TestProviderOff {
        gb: "The test provider is not enabled.",
        br: "O provedor de teste não está ativado.",
        es: "El proveedor de prueba no está activado.",
        cn: "测试支付服务商未启用。",
        ir: "درگاه آزمایشی فعال نیست.",
    }
    StripeNotConfigured {
        gb: "Stripe is not configured.",
        br: "O Stripe não está configurado.",
        es: "Stripe no está configurado.",
        cn: "Stripe 未配置。",
        ir: "Stripe پیکربندی نشده است.",
    }
    MissingStripeSignature {
        gb: "Missing Stripe-Signature header.",
        br: "Falta o cabeçalho Stripe-Signature.",
        es: "Falta la cabecera Stripe-Signature.",
        cn: "缺少 Stripe-Signature 请求头。",
        ir: "سرآیند Stripe-Signature وجود ندارد.",
    }
    InvalidStripeSignature {
        gb: "Invalid Stripe signature.",
        br: "Assinatura do Stripe inválida.",
        es: "Firma de Stripe no válida.",
        cn: "Stripe 签名无效。",
        ir: "امضای Stripe نامعتبر است.",
    }
    StaleStripeSignature {
        gb: "Stale Stripe signature timestamp.",
        br: "O horário da assinatura do Stripe está vencido.",
        es: "La marca de tiempo de la firma de Stripe está caducada.",
        cn: "Stripe 签名时间戳已过期。",
        ir: "زمان امضای Stripe کهنه است.",
    }
    WebhookNotJson {
        gb: "The webhook body is not JSON.",
        br: "O corpo do webhook não é JSON.",
        es: "El cuerpo del webhook no es JSON.",
        cn: "webhook 请求体不是 JSON。",
        ir: "بدنهٔ webhook از نوع JSON نیست.",
    }
    WebhookNoIdOrType {
        gb: "The webhook event has no id or type.",
        br: "O evento do webhook não tem id ou tipo.",
        es: "El evento del webhook no tiene id o tipo.",
        cn: "webhook 事件缺少 id 或类型。",
        ir: "رویداد webhook شناسه یا نوع ندارد.",
    }
    StripeNoCheckoutUrl {
        gb: "Stripe did not return a checkout URL.",
        br: "O Stripe não retornou uma URL de pagamento.",
        es: "Stripe no devolvió una URL de pago.",
        cn: "Stripe 未返回结账链接。",
        ir: "Stripe نشانی پرداخت را برنگرداند.",
    }
    StripeNoRefund {
        gb: "Stripe did not confirm the refund.",
        br: "O Stripe não confirmou o reembolso.",
        es: "Stripe no confirmó el reembolso.",
        cn: "Stripe 未确认退款。",
        ir: "Stripe بازپرداخت را تأیید نکرد.",
    }
    ProviderUnreachable {
        gb: "The payment provider could not be reached. Try again.",
        br: "Não foi possível contatar o provedor de pagamento. Tente de novo.",
        es: "No se pudo contactar con el proveedor de pagos. Inténtalo de nuevo.",
        cn: "无法连接支付服务商，请重试。",
        ir: "ارتباط با درگاه پرداخت برقرار نشد. دوباره تلاش کنید.",
    }
    ProviderRefused {
        gb: "The payment provider refused the request.",
        br: "O provedor de pagamento recusou a solicitação.",
        es: "El proveedor de pagos rechazó la solicitud.",
        cn: "支付服务商拒绝了该请求。",
        ir: "درگاه پرداخت درخواست را رد کرد.",
    }
    UnsupportedCurrency {
        gb: "Unsupported currency \"{code}\": use an ISO 4217 code such as EUR, USD or BRL.",
        br: "Moeda não suportada \"{code}\": use um código ISO 4217 como EUR, USD ou BRL.",
        es: "Moneda no admitida \"{code}\": usa un código ISO 4217 como EUR, USD o BRL.",
        cn: "不支持的币种 \"{code}\"：请使用 ISO 4217 代码，例如 EUR、USD 或 BRL。",
        ir: "واحد پول \"{code}\" پشتیبانی نمی‌شود: از کد ISO 4217 مانند EUR، USD یا BRL استفاده کنید.",
    }
    PriceRange {
        gb: "The price must be between 0 and 1,000,000.00 (in minor units, e.g. cents).",
        br: "O preço deve estar entre 0 e 1.000.000,00 (em centavos).",
        es: "El precio debe estar entre 0 y 1.000.000,00 (en unidades menores, p. ej. céntimos).",
        cn: "价格须在 0 到 1,000,000.00 之间（以最小货币单位计，例如分）。",
        ir: "قیمت باید بین ۰ و ۱٬۰۰۰٬۰۰۰٫۰۰ باشد (بر حسب کوچک‌ترین واحد پول، مانند سنت).",
    }
    PassNameLength {
        gb: "A pass needs a name of 1 to 120 characters.",
        br: "Um passe precisa de um nome de 1 a 120 caracteres.",
        es: "Un abono necesita un nombre de 1 a 120 caracteres.",
        cn: "通票名称须为 1 到 120 个字符。",
        ir: "اشتراک به نامی بین ۱ تا ۱۲۰ نویسه نیاز دارد.",
    }
    PassDays {
        gb: "A pass is valid for 1 to 3,660 days.",
        br: "Um passe vale de 1 a 3.660 dias.",
        es: "Un abono es válido de 1 a 3.660 días.",
        cn: "通票有效期为 1 到 3,660 天。",
        ir: "اعتبار اشتراک بین ۱ تا ۳٬۶۶۰ روز است.",
    }
    PassFieldsRequired {
        gb: "A pass needs a name, a price and a number of days.",
        br: "Um passe precisa de nome, preço e número de dias.",
        es: "Un abono necesita un nombre, un precio y un número de días.",
        cn: "通票需要名称、价格和天数。",
        ir: "اشتراک به نام، قیمت و تعداد روز نیاز دارد.",
    }
    PassNotFound {
        gb: "Pass not found.",
        br: "Passe não encontrado.",
        es: "Abono no encontrado.",
        cn: "找不到通票。",
        ir: "اشتراک پیدا نشد.",
    }
    FieldTooLong {
        gb: "{field} is too long ({max} characters at most).",
        br: "{field} é longo demais (no máximo {max} caracteres).",
        es: "{field} es demasiado largo ({max} caracteres como máximo).",
        cn: "{field} 太长（最多 {max} 个字符）。",
        ir: "{field} بیش از حد طولانی است (حداکثر {max} نویسه).",
    }
    BillingNameRequired {
        gb: "The billing name is required.",
        br: "O nome para cobrança é obrigatório.",
        es: "El nombre de facturación es obligatorio.",
        cn: "账单名称为必填项。",
        ir: "نام صورت‌حساب الزامی است.",
    }
    SortCode {
        gb: "The sort code has six digits, e.g. 12-34-56.",
        br: "O sort code tem seis dígitos, por exemplo 12-34-56.",
        es: "El sort code tiene seis dígitos, por ejemplo 12-34-56.",
        cn: "银行分行代码为六位数字，例如 12-34-56。",
        ir: "کد شعبه (sort code) شش رقم دارد، برای نمونه 12-34-56.",
    }
    AccountNumber {
        gb: "The account number must be 6 to 34 letters and digits (an IBAN is fine).",
        br: "O número da conta deve ter de 6 a 34 letras e dígitos (um IBAN serve).",
        es: "El número de cuenta debe tener de 6 a 34 letras y dígitos (vale un IBAN).",
        cn: "账号须为 6 到 34 位字母和数字（IBAN 也可以）。",
        ir: "شمارهٔ حساب باید بین ۶ تا ۳۴ حرف و رقم باشد (IBAN هم قابل قبول است).",
    }

    // The hosted test-checkout page and its card answers.
    PayTitle {
        gb: "Encore checkout",
        br: "Pagamento Encore",
        es: "Pago de Encore",
        cn: "Encore 结账",
        ir: "پرداخت Encore",
    }
    PayNotFoundTitle {
        gb: "Checkout not found",
        br: "Pagamento não encontrado",
        es: "Pago no encontrado",
        cn: "找不到结账",
        ir: "پرداخت پیدا نشد",
    }
    CheckoutNotFound {
        gb: "This checkout does not exist.",
        br: "Este pagamento não existe.",
        es: "Este pago no existe.",
        cn: "此结账不存在。",
        ir: "این پرداخت وجود ندارد.",
    }
    PayTestMode {
        gb: "Test mode: no real card is charged.",
        br: "Modo de teste: nenhum cartão real é cobrado.",
        es: "Modo de prueba: no se cobra ninguna tarjeta real.",
        cn: "测试模式：不会从真实银行卡扣款。",
        ir: "حالت آزمایشی: از هیچ کارت واقعی پولی کسر نمی‌شود.",
    }
    PayTotal {
        gb: "Total",
        br: "Total",
        es: "Total",
        cn: "合计",
        ir: "جمع کل",
    }
    PayName {
        gb: "Name on card",
        br: "Nome no cartão",
        es: "Nombre en la tarjeta",
        cn: "持卡人姓名",
        ir: "نام روی کارت",
    }
    PayNumber {
        gb: "Card number",
        br: "Número do cartão",
        es: "Número de tarjeta",
        cn: "卡号",
        ir: "شماره کارت",
    }
    PayExpiry {
        gb: "Expiry",
        br: "Validade",
        es: "Caducidad",
        cn: "有效期",
        ir: "تاریخ انقضا",
    }
    PayCvc {
        gb: "CVC",
        br: "CVC",
        es: "CVC",
        cn: "安全码",
        ir: "کد امنیتی",
    }
    PayButton {
        gb: "Pay {total}",
        br: "Pagar {total}",
        es: "Pagar {total}",
        cn: "支付 {total}",
        ir: "پرداخت {total}",
    }
    PayProcessing {
        gb: "Processing…",
        br: "Processando…",
        es: "Procesando…",
        cn: "处理中…",
        ir: "در حال پردازش…",
    }
    PayOffline {
        gb: "Encore could not be reached. Check your connection and try again.",
        br: "Não foi possível contatar o Encore. Verifique sua conexão e tente de novo.",
        es: "No se pudo contactar con Encore. Comprueba tu conexión e inténtalo de nuevo.",
        cn: "无法连接 Encore。请检查网络连接后重试。",
        ir: "ارتباط با Encore برقرار نشد. اتصال خود را بررسی کنید و دوباره تلاش کنید.",
    }
    PayTestCards {
        gb: "Test cards",
        br: "Cartões de teste",
        es: "Tarjetas de prueba",
        cn: "测试卡",
        ir: "کارت‌های آزمایشی",
    }
    PaySucceeds {
        gb: "succeeds",
        br: "aprovado",
        es: "aprobada",
        cn: "支付成功",
        ir: "موفق",
    }
    PayDeclinedCard {
        gb: "declined",
        br: "recusado",
        es: "rechazada",
        cn: "被拒绝",
        ir: "رد می‌شود",
    }
    PayInsufficientCard {
        gb: "insufficient funds",
        br: "saldo insuficiente",
        es: "fondos insuficientes",
        cn: "余额不足",
        ir: "موجودی ناکافی",
    }
    PayRetryCard {
        gb: "processing error, try again",
        br: "erro de processamento, tente de novo",
        es: "error de procesamiento, inténtalo de nuevo",
        cn: "处理出错，请重试",
        ir: "خطای پردازش، دوباره تلاش کنید",
    }
    PayAnyFuture {
        gb: "Any future expiry date and any 3-digit CVC.",
        br: "Qualquer validade futura e qualquer CVC de 3 dígitos.",
        es: "Cualquier fecha de caducidad futura y cualquier CVC de 3 dígitos.",
        cn: "任意未来的有效期和任意 3 位安全码。",
        ir: "هر تاریخ انقضای آینده و هر کد امنیتی سه‌رقمی.",
    }
    PayClosed {
        gb: "This checkout is closed ({status}).",
        br: "Este pagamento está encerrado ({status}).",
        es: "Este pago está cerrado ({status}).",
        cn: "此结账已关闭（{status}）。",
        ir: "این پرداخت بسته شده است ({status}).",
    }
    // An order's state in words, as the web app names it (`cart.status`).
    OrderPending {
        gb: "Awaiting payment",
        br: "Aguardando pagamento",
        es: "Pendiente de pago",
        cn: "待支付",
        ir: "در انتظار پرداخت",
    }
    OrderPaid {
        gb: "Paid",
        br: "Pago",
        es: "Pagado",
        cn: "已支付",
        ir: "پرداخت‌شده",
    }
    OrderFulfilled {
        gb: "Complete",
        br: "Concluído",
        es: "Completado",
        cn: "已完成",
        ir: "تکمیل‌شده",
    }
    OrderFailed {
        gb: "Failed",
        br: "Falhou",
        es: "Fallido",
        cn: "失败",
        ir: "ناموفق",
    }
    OrderExpired {
        gb: "Expired",
        br: "Expirado",
        es: "Caducado",
        cn: "已过期",
        ir: "منقضی‌شده",
    }
    OrderRefunded {
        gb: "Refunded",
        br: "Reembolsado",
        es: "Reembolsado",
        cn: "已退款",
        ir: "بازپرداخت‌شده",
    }
    PayBack {
        gb: "Back to your cart",
        br: "Voltar ao carrinho",
        es: "Volver al carrito",
        cn: "返回购物车",
        ir: "بازگشت به سبد خرید",
    }
    CardDeclined {
        gb: "Your card was declined. Your cart is unchanged: try another card.",
        br: "Seu cartão foi recusado. Seu carrinho continua igual: tente outro cartão.",
        es: "Tu tarjeta fue rechazada. Tu carrito no ha cambiado: prueba con otra tarjeta.",
        cn: "您的银行卡被拒绝。购物车未改变：请换一张卡。",
        ir: "کارت شما رد شد. سبد خرید شما تغییری نکرده است: کارت دیگری را امتحان کنید.",
    }
    CardInsufficientFunds {
        gb: "Your card has insufficient funds. Your cart is unchanged: try another card.",
        br: "Seu cartão não tem saldo suficiente. Seu carrinho continua igual: tente outro cartão.",
        es: "Tu tarjeta no tiene fondos suficientes. Tu carrito no ha cambiado: prueba con otra tarjeta.",
        cn: "您的银行卡余额不足。购物车未改变：请换一张卡。",
        ir: "موجودی کارت شما کافی نیست. سبد خرید شما تغییری نکرده است: کارت دیگری را امتحان کنید.",
    }
    CardProcessingError {
        gb: "A processing error occurred. Your card was not charged; try again.",
        br: "Ocorreu um erro de processamento. Seu cartão não foi cobrado; tente de novo.",
        es: "Se produjo un error de procesamiento. No se cobró tu tarjeta; inténtalo de nuevo.",
        cn: "处理时出错。您的卡未被扣款，请重试。",
        ir: "خطایی در پردازش رخ داد. از کارت شما پولی کسر نشد؛ دوباره تلاش کنید.",
    }
    CheckoutExpired {
        gb: "This checkout has expired or is closed. Go back to your cart to start again.",
        br: "Este pagamento expirou ou foi encerrado. Volte ao carrinho para recomeçar.",
        es: "Este pago ha caducado o está cerrado. Vuelve al carrito para empezar de nuevo.",
        cn: "此结账已过期或已关闭。请返回购物车重新开始。",
        ir: "این پرداخت منقضی یا بسته شده است. برای شروع دوباره به سبد خرید برگردید.",
    }
    CheckoutAlreadyPaid {
        gb: "This checkout was paid already: nothing more was charged. Your tickets are in My events.",
        br: "Este pagamento já foi feito: nada mais foi cobrado. Seus ingressos estão em Meus eventos.",
        es: "Este pago ya se realizó: no se cobró nada más. Tus entradas están en Mis eventos.",
        cn: "此结账已付款：未再扣款。您的门票在“我的活动”中。",
        ir: "این پرداخت پیش‌تر انجام شده است: مبلغ دیگری کسر نشد. بلیت‌های شما در «رویدادهای من» است.",
    }
    NoReceiptUnpaid {
        gb: "This order was never paid, so it has no receipt: nothing was charged.",
        br: "Este pedido nunca foi pago, por isso não tem recibo: nada foi cobrado.",
        es: "Este pedido nunca se pagó, así que no tiene recibo: no se cobró nada.",
        cn: "此订单从未付款，因此没有收据：未扣任何款项。",
        ir: "این سفارش هرگز پرداخت نشد، پس رسیدی ندارد: مبلغی کسر نشده است.",
    }
    CardInvalidNumber {
        gb: "The card number is invalid.",
        br: "O número do cartão é inválido.",
        es: "El número de tarjeta no es válido.",
        cn: "卡号无效。",
        ir: "شماره کارت نامعتبر است.",
    }
    CardBadExpiry {
        gb: "Enter the expiry date as MM/YY.",
        br: "Informe a validade como MM/AA.",
        es: "Escribe la caducidad como MM/AA.",
        cn: "请按 MM/YY 格式填写有效期。",
        ir: "تاریخ انقضا را به شکل MM/YY وارد کنید.",
    }
    CardExpired {
        gb: "The card has expired.",
        br: "O cartão está vencido.",
        es: "La tarjeta ha caducado.",
        cn: "该卡已过期。",
        ir: "کارت منقضی شده است.",
    }
    CardBadCvc {
        gb: "The security code (CVC) is invalid.",
        br: "O código de segurança (CVC) é inválido.",
        es: "El código de seguridad (CVC) no es válido.",
        cn: "安全码（CVC）无效。",
        ir: "کد امنیتی (CVC) نامعتبر است.",
    }
    UseTestCard {
        gb: "This is a test checkout: use a test card such as 4242 4242 4242 4242.",
        br: "Este é um pagamento de teste: use um cartão de teste como 4242 4242 4242 4242.",
        es: "Este es un pago de prueba: usa una tarjeta de prueba como 4242 4242 4242 4242.",
        cn: "这是测试结账：请使用测试卡，例如 4242 4242 4242 4242。",
        ir: "این یک پرداخت آزمایشی است: از یک کارت آزمایشی مانند 4242 4242 4242 4242 استفاده کنید.",
    }

    // Messages sent to people: SMS, e-mails, notifications.
    SmsSignInCode {
        gb: "Your Encore sign-in code is {code}. It expires in 5 minutes.",
        br: "Seu código de acesso ao Encore é {code}. Ele expira em 5 minutos.",
        es: "Tu código para iniciar sesión en Encore es {code}. Caduca en 5 minutos.",
        cn: "您的 Encore 登录验证码是 {code}，5 分钟内有效。",
        ir: "کد ورود شما به Encore: {code}. این کد تا ۵ دقیقه معتبر است.",
    }
    SmsPhoneCode {
        gb: "Your Encore code to confirm this phone is {code}. It expires in 5 minutes.",
        br: "Seu código do Encore para confirmar este telefone é {code}. Ele expira em 5 minutos.",
        es: "Tu código de Encore para confirmar este teléfono es {code}. Caduca en 5 minutos.",
        cn: "您用于确认此手机的 Encore 验证码是 {code}，5 分钟内有效。",
        ir: "کد Encore برای تأیید این تلفن: {code}. این کد تا ۵ دقیقه معتبر است.",
    }
    ResetSubject {
        gb: "Reset your Encore password",
        br: "Redefina sua senha do Encore",
        es: "Restablece tu contraseña de Encore",
        cn: "重置您的 Encore 密码",
        ir: "بازنشانی گذرواژهٔ Encore",
    }
    ResetBody {
        gb: "Hello {name},\n\nSomeone (hopefully you) asked to reset your Encore password. Open this link within 30 minutes to choose a new one:\n\n{link}\n\nIf you did not ask for this, ignore this e-mail: your password stays as it is.\n",
        br: "Olá, {name},\n\nAlguém (esperamos que você) pediu para redefinir sua senha do Encore. Abra este link em até 30 minutos para escolher uma nova:\n\n{link}\n\nSe não foi você, ignore este e-mail: sua senha continua a mesma.\n",
        es: "Hola, {name}:\n\nAlguien (esperamos que tú) ha pedido restablecer tu contraseña de Encore. Abre este enlace en los próximos 30 minutos para elegir una nueva:\n\n{link}\n\nSi no lo has pedido tú, ignora este correo: tu contraseña no cambia.\n",
        cn: "{name}，您好：\n\n有人（希望是您本人）请求重置您的 Encore 密码。请在 30 分钟内打开以下链接设置新密码：\n\n{link}\n\n如果这不是您的请求，请忽略此邮件，您的密码不会改变。\n",
        ir: "{name} عزیز، سلام\n\nکسی (امیدواریم خود شما) درخواست بازنشانی گذرواژهٔ Encore شما را داده است. این پیوند را ظرف ۳۰ دقیقه باز کنید تا گذرواژهٔ تازه‌ای انتخاب کنید:\n\n{link}\n\nاگر چنین درخواستی نداده‌اید، این ایمیل را نادیده بگیرید: گذرواژهٔ شما تغییری نمی‌کند.\n",
    }
    InviteSubject {
        gb: "You are invited to Encore",
        br: "Você foi convidado para o Encore",
        es: "Te han invitado a Encore",
        cn: "您受邀加入 Encore",
        ir: "شما به Encore دعوت شده‌اید",
    }
    InviteBody {
        gb: "Hello {name},\n\n{inviter} created an Encore account for you. Open this link within 7 days to choose your password and sign in:\n\n{link}\n",
        br: "Olá, {name},\n\n{inviter} criou uma conta no Encore para você. Abra este link em até 7 dias para escolher sua senha e entrar:\n\n{link}\n",
        es: "Hola, {name}:\n\n{inviter} te ha creado una cuenta en Encore. Abre este enlace en los próximos 7 días para elegir tu contraseña e iniciar sesión:\n\n{link}\n",
        cn: "{name}，您好：\n\n{inviter} 为您创建了一个 Encore 账户。请在 7 天内打开以下链接设置密码并登录：\n\n{link}\n",
        ir: "{name} عزیز، سلام\n\n{inviter} برای شما یک حساب Encore ساخته است. این پیوند را ظرف ۷ روز باز کنید تا گذرواژه‌تان را انتخاب کنید و وارد شوید:\n\n{link}\n",
    }
    WelcomeSubject {
        gb: "Welcome to Encore: confirm your e-mail address",
        br: "Boas-vindas ao Encore: confirme seu endereço de e-mail",
        es: "Bienvenido a Encore: confirma tu dirección de correo",
        cn: "欢迎加入 Encore：请确认您的电子邮件地址",
        ir: "به Encore خوش آمدید: نشانی ایمیل خود را تأیید کنید",
    }
    WelcomeBody {
        gb: "Hello {name},\n\nWelcome to Encore! Open this link within 7 days to confirm that this address is yours:\n\n{link}\n\nUntil then we will not send you any text message (sign-in codes included). If you did not sign up, ignore this e-mail.\n",
        br: "Olá, {name},\n\nBoas-vindas ao Encore! Abra este link em até 7 dias para confirmar que este endereço é seu:\n\n{link}\n\nAté lá, não enviaremos nenhum SMS a você (nem códigos de acesso). Se não foi você quem se cadastrou, ignore este e-mail.\n",
        es: "Hola, {name}:\n\n¡Bienvenido a Encore! Abre este enlace en los próximos 7 días para confirmar que esta dirección es tuya:\n\n{link}\n\nHasta entonces no te enviaremos ningún SMS (tampoco códigos de acceso). Si no te has registrado tú, ignora este correo.\n",
        cn: "{name}，您好：\n\n欢迎加入 Encore！请在 7 天内打开以下链接，确认此地址属于您：\n\n{link}\n\n在此之前，我们不会向您发送任何短信（包括登录验证码）。如果您没有注册，请忽略此邮件。\n",
        ir: "{name} عزیز، سلام\n\nبه Encore خوش آمدید! این پیوند را ظرف ۷ روز باز کنید تا تأیید کنید این نشانی متعلق به شماست:\n\n{link}\n\nتا آن زمان هیچ پیامکی (از جمله کد ورود) برایتان نمی‌فرستیم. اگر ثبت‌نام نکرده‌اید، این ایمیل را نادیده بگیرید.\n",
    }
    ReceiptSubject {
        gb: "Your Encore tickets",
        br: "Seus ingressos do Encore",
        es: "Tus entradas de Encore",
        cn: "您的 Encore 门票",
        ir: "بلیت‌های Encore شما",
    }
    ReceiptBody {
        gb: "Hello {name},\n\nThank you for your order {order}.\n\n{lines}\nTotal: {total}\n\nEach concert can be heard live and replayed for 24 hours from its start at {url}/my-events.\n",
        br: "Olá, {name},\n\nObrigado pelo seu pedido {order}.\n\n{lines}\nTotal: {total}\n\nCada show pode ser ouvido ao vivo e repetido por 24 horas a partir do início em {url}/my-events.\n",
        es: "Hola, {name}:\n\nGracias por tu pedido {order}.\n\n{lines}\nTotal: {total}\n\nCada concierto se puede escuchar en directo y volver a escuchar durante 24 horas desde su inicio en {url}/my-events.\n",
        cn: "{name}，您好：\n\n感谢您的订单 {order}。\n\n{lines}\n合计：{total}\n\n每场音乐会自开始起 24 小时内均可在 {url}/my-events 收听直播和回放。\n",
        ir: "{name} عزیز، سلام\n\nاز سفارش {order} شما سپاسگزاریم.\n\n{lines}\nجمع کل: {total}\n\nهر کنسرت را می‌توانید از زمان شروع تا ۲۴ ساعت، به‌صورت زنده و بازپخش، در {url}/my-events بشنوید.\n",
    }
    RefundSubject {
        gb: "Your Encore refund",
        br: "Seu reembolso do Encore",
        es: "Tu reembolso de Encore",
        cn: "您的 Encore 退款",
        ir: "بازپرداخت Encore شما",
    }
    RefundBody {
        gb: "Hello {name},\n\nWe refunded {amount} of your order {order} ({reason}). Access to what it bought has ended.\n",
        br: "Olá, {name},\n\nReembolsamos {amount} do seu pedido {order} ({reason}). O acesso ao que ele comprou terminou.\n",
        es: "Hola, {name}:\n\nHemos reembolsado {amount} de tu pedido {order} ({reason}). El acceso a lo que compraste con él ha terminado.\n",
        cn: "{name}，您好：\n\n我们已退还您订单 {order} 中的 {amount}（{reason}）。该订单所购内容的访问权限已结束。\n",
        ir: "{name} عزیز، سلام\n\nمبلغ {amount} از سفارش {order} شما بازگردانده شد ({reason}). دسترسی به آنچه با این سفارش خریده بودید پایان یافته است.\n",
    }

    // Security issue 11, findings 9 and 14: SMS limits and uploaded images.
    SmsCountryNotAllowed {
        gb: "Text messages cannot be sent to this country. Use a number from another country.",
        br: "Não é possível enviar SMS para este país. Use um número de outro país.",
        es: "No se pueden enviar SMS a este país. Usa un número de otro país.",
        cn: "无法向该国家或地区发送短信，请使用其他国家或地区的号码。",
        ir: "ارسال پیامک به این کشور ممکن نیست. از شماره‌ای در کشوری دیگر استفاده کنید.",
    }
    SmsNumberLimit {
        gb: "Too many codes were sent to this number. Try again in {minutes} minutes.",
        br: "Muitos códigos foram enviados para este número. Tente de novo em {minutes} minutos.",
        es: "Se han enviado demasiados códigos a este número. Inténtalo de nuevo en {minutes} minutos.",
        cn: "发送到该号码的验证码过多，请在 {minutes} 分钟后重试。",
        ir: "کدهای زیادی به این شماره فرستاده شده است. {minutes} دقیقهٔ دیگر دوباره تلاش کنید.",
    }
    SmsServerLimit {
        gb: "Text messages are paused for a while because too many were sent. Try again in {minutes} minutes.",
        br: "O envio de SMS está pausado por excesso de mensagens. Tente de novo em {minutes} minutos.",
        es: "El envío de SMS está en pausa porque se han enviado demasiados. Inténtalo de nuevo en {minutes} minutos.",
        cn: "由于发送的短信过多，短信发送已暂停。请在 {minutes} 分钟后重试。",
        ir: "به دلیل ارسال بیش از حد، ارسال پیامک موقتاً متوقف شده است. {minutes} دقیقهٔ دیگر دوباره تلاش کنید.",
    }
    ImageTooManyPixels {
        gb: "The image is too large: at most {width} × {height} pixels ({megapixels} megapixels).",
        br: "A imagem é grande demais: no máximo {width} × {height} pixels ({megapixels} megapixels).",
        es: "La imagen es demasiado grande: como máximo {width} × {height} píxeles ({megapixels} megapíxeles).",
        cn: "图片尺寸过大：最多 {width} × {height} 像素（{megapixels} 百万像素）。",
        ir: "ابعاد تصویر بیش از حد است: حداکثر {width} × {height} پیکسل ({megapixels} مگاپیکسل).",
    }
    ImageUnreadable {
        gb: "This image could not be read. It may be damaged; try another file.",
        br: "Não foi possível ler esta imagem. Ela pode estar danificada; tente outro arquivo.",
        es: "No se ha podido leer esta imagen. Puede estar dañada; prueba con otro archivo.",
        cn: "无法读取此图片，文件可能已损坏，请换一个文件。",
        ir: "این تصویر خوانده نشد. ممکن است آسیب دیده باشد؛ فایل دیگری را امتحان کنید.",
    }
    // Security findings 6 and 7 (sec-mfa): step-up for sensitive changes, phone
    // enrolment by e-mailed link, e-mail change, QR number matching.
    CurrentPasswordRequired {
        gb: "Enter your current password to make this change.",
        br: "Digite sua senha atual para fazer esta alteração.",
        es: "Introduce tu contraseña actual para hacer este cambio.",
        cn: "请输入当前密码以进行此更改。",
        ir: "برای انجام این تغییر، گذرواژهٔ فعلی خود را وارد کنید.",
    }
    MfaNeedsPhone {
        gb: "Add and confirm a phone number before turning on two-step sign-in.",
        br: "Adicione e confirme um número de telefone antes de ativar o login em duas etapas.",
        es: "Añade y confirma un número de teléfono antes de activar el inicio de sesión en dos pasos.",
        cn: "开启两步登录前，请先添加并确认手机号码。",
        ir: "پیش از روشن کردن ورود دومرحله‌ای، یک شمارهٔ تلفن اضافه و تأیید کنید.",
    }
    EnrolmentLinkSent {
        gb: "To add a phone to this account, open the link we have just e-mailed to its address.",
        br: "Para adicionar um telefone a esta conta, abra o link que acabamos de enviar para o e-mail dela.",
        es: "Para añadir un teléfono a esta cuenta, abre el enlace que acabamos de enviar a su correo.",
        cn: "要为此账户添加手机，请打开我们刚刚发送到其邮箱的链接。",
        ir: "برای افزودن تلفن به این حساب، پیوندی را که همین الان به ایمیل آن فرستادیم باز کنید.",
    }
    EnrolmentLinkInvalid {
        gb: "This phone set-up link is invalid, has expired or was already used. Sign in again to get a new one.",
        br: "Este link de cadastro de telefone é inválido, expirou ou já foi usado. Entre de novo para receber outro.",
        es: "Este enlace para registrar un teléfono no es válido, ha caducado o ya se usó. Vuelve a iniciar sesión para recibir otro.",
        cn: "此手机设置链接无效、已过期或已被使用。请重新登录以获取新链接。",
        ir: "این پیوند ثبت تلفن نامعتبر است، منقضی شده یا قبلاً استفاده شده است. برای دریافت پیوند تازه دوباره وارد شوید.",
    }
    SecondFactorSessionRequired {
        gb: "Sign in again with the code sent to your phone to change it.",
        br: "Entre de novo com o código enviado ao seu telefone para alterá-lo.",
        es: "Vuelve a iniciar sesión con el código enviado a tu teléfono para cambiarlo.",
        cn: "请使用发送到您手机的验证码重新登录后再更改。",
        ir: "برای تغییر آن، با کدی که به تلفن شما فرستاده می‌شود دوباره وارد شوید.",
    }
    EnrolSubject {
        gb: "Encore: add a phone for two-step sign-in",
        br: "Encore: adicione um telefone para o login em duas etapas",
        es: "Encore: añade un teléfono para el inicio de sesión en dos pasos",
        cn: "Encore：为两步登录添加手机",
        ir: "Encore: افزودن تلفن برای ورود دومرحله‌ای",
    }
    EnrolBody {
        gb: "Hello {name},\n\nSomeone signed in to your Encore account with your password and wants to add a phone for its sign-in codes. If that was you, open this link within 30 minutes and sign in again to add your phone:\n\n{link}\n\nIf it was not you, do not open the link, and change your password: someone knows it.\n",
        br: "Olá, {name},\n\nAlguém entrou na sua conta do Encore com a sua senha e quer adicionar um telefone para os códigos de acesso. Se foi você, abra este link em até 30 minutos e entre de novo para adicionar seu telefone:\n\n{link}\n\nSe não foi você, não abra o link e troque sua senha: alguém a conhece.\n",
        es: "Hola, {name}:\n\nAlguien ha iniciado sesión en tu cuenta de Encore con tu contraseña y quiere añadir un teléfono para los códigos de acceso. Si has sido tú, abre este enlace en los próximos 30 minutos y vuelve a iniciar sesión para añadir tu teléfono:\n\n{link}\n\nSi no has sido tú, no abras el enlace y cambia tu contraseña: alguien la conoce.\n",
        cn: "{name}，您好：\n\n有人使用您的密码登录了您的 Encore 账户，并想添加一部接收登录验证码的手机。如果是您本人，请在 30 分钟内打开以下链接并重新登录以添加手机：\n\n{link}\n\n如果不是您本人，请不要打开该链接，并修改您的密码：有人知道它。\n",
        ir: "{name} عزیز، سلام\n\nکسی با گذرواژهٔ شما وارد حساب Encore شما شده و می‌خواهد تلفنی برای کدهای ورود اضافه کند. اگر خود شما بودید، این پیوند را ظرف ۳۰ دقیقه باز کنید و دوباره وارد شوید تا تلفن خود را اضافه کنید:\n\n{link}\n\nاگر شما نبودید، پیوند را باز نکنید و گذرواژهٔ خود را عوض کنید: کسی آن را می‌داند.\n",
    }
    EmailChangeSubject {
        gb: "Encore: confirm your new e-mail address",
        br: "Encore: confirme seu novo endereço de e-mail",
        es: "Encore: confirma tu nueva dirección de correo",
        cn: "Encore：请确认您的新电子邮件地址",
        ir: "Encore: نشانی ایمیل تازهٔ خود را تأیید کنید",
    }
    EmailChangeBody {
        gb: "Hello {name},\n\nYour Encore account asked to sign in with {email} from now on. Open this link within 7 days to confirm that this address is yours; until then the old address stays in use:\n\n{link}\n\nIf you did not ask for this, ignore this e-mail.\n",
        br: "Olá, {name},\n\nSua conta do Encore pediu para entrar com {email} a partir de agora. Abra este link em até 7 dias para confirmar que este endereço é seu; até lá, o endereço antigo continua valendo:\n\n{link}\n\nSe não foi você, ignore este e-mail.\n",
        es: "Hola, {name}:\n\nTu cuenta de Encore ha pedido iniciar sesión con {email} a partir de ahora. Abre este enlace en los próximos 7 días para confirmar que esta dirección es tuya; hasta entonces sigue valiendo la anterior:\n\n{link}\n\nSi no lo has pedido tú, ignora este correo.\n",
        cn: "{name}，您好：\n\n您的 Encore 账户请求今后使用 {email} 登录。请在 7 天内打开以下链接，确认此地址属于您；在此之前仍使用旧地址：\n\n{link}\n\n如果这不是您的请求，请忽略此邮件。\n",
        ir: "{name} عزیز، سلام\n\nحساب Encore شما درخواست کرده است که از این پس با {email} وارد شود. این پیوند را ظرف ۷ روز باز کنید تا تأیید کنید این نشانی متعلق به شماست؛ تا آن زمان نشانی قبلی به کار می‌رود:\n\n{link}\n\nاگر چنین درخواستی نداده‌اید، این ایمیل را نادیده بگیرید.\n",
    }
    EmailChangeNoticeSubject {
        gb: "Encore: your sign-in e-mail is being changed",
        br: "Encore: o e-mail de acesso da sua conta está sendo alterado",
        es: "Encore: se está cambiando el correo de acceso de tu cuenta",
        cn: "Encore：您的登录邮箱正在被更改",
        ir: "Encore: ایمیل ورود حساب شما در حال تغییر است",
    }
    EmailChangeNoticeBody {
        gb: "Hello {name},\n\nSomeone asked to change the sign-in e-mail of your Encore account from this address to {email}. The change happens only once the new address is confirmed.\n\nIf this was not you, sign in and change your password now, and tell the organisers.\n",
        br: "Olá, {name},\n\nAlguém pediu para trocar o e-mail de acesso da sua conta do Encore deste endereço para {email}. A troca só acontece depois que o novo endereço for confirmado.\n\nSe não foi você, entre e troque sua senha agora, e avise os organizadores.\n",
        es: "Hola, {name}:\n\nAlguien ha pedido cambiar el correo de acceso de tu cuenta de Encore de esta dirección a {email}. El cambio solo se hace cuando se confirme la nueva dirección.\n\nSi no has sido tú, inicia sesión y cambia tu contraseña ahora, y avisa a los organizadores.\n",
        cn: "{name}，您好：\n\n有人请求将您的 Encore 账户的登录邮箱从此地址更改为 {email}。只有在新地址被确认后才会更改。\n\n如果这不是您本人，请立即登录并修改密码，并告知组织者。\n",
        ir: "{name} عزیز، سلام\n\nکسی درخواست کرده است که ایمیل ورود حساب Encore شما از این نشانی به {email} تغییر کند. این تغییر فقط پس از تأیید نشانی تازه انجام می‌شود.\n\nاگر شما نبودید، همین حالا وارد شوید و گذرواژهٔ خود را عوض کنید و به برگزارکنندگان خبر دهید.\n",
    }
    EmailChangeLinkInvalid {
        gb: "This confirmation link is invalid, has expired or was already used.",
        br: "Este link de confirmação é inválido, expirou ou já foi usado.",
        es: "Este enlace de confirmación no es válido, ha caducado o ya se usó.",
        cn: "此确认链接无效、已过期或已被使用。",
        ir: "این پیوند تأیید نامعتبر است، منقضی شده یا قبلاً استفاده شده است.",
    }
    QrWrongNumber {
        gb: "That is not the number shown on the other device. This QR sign-in was cancelled; start again there.",
        br: "Este não é o número mostrado no outro aparelho. Este login por QR foi cancelado; comece de novo lá.",
        es: "Ese no es el número que muestra el otro dispositivo. Este inicio de sesión por QR se ha cancelado; empieza de nuevo allí.",
        cn: "这不是另一台设备上显示的数字。此二维码登录已取消，请在那台设备上重新开始。",
        ir: "این عددی نیست که دستگاه دیگر نشان می‌دهد. این ورود با QR لغو شد؛ از آنجا دوباره شروع کنید.",
    }
    // What an encoder (or the browser's go-live) is told when it may not publish.
    IngestMalformed {
        gb: "Malformed request.",
        br: "Requisição malformada.",
        es: "Solicitud mal formada.",
        cn: "请求格式错误。",
        ir: "درخواست نادرست است.",
    }
    IngestUseSourceOrPut {
        gb: "Publish with PUT or SOURCE.",
        br: "Publique com PUT ou SOURCE.",
        es: "Publica con PUT o SOURCE.",
        cn: "请使用 PUT 或 SOURCE 发布。",
        ir: "با PUT یا SOURCE منتشر کنید.",
    }
    IngestUseLivePath {
        gb: "Publish to /live/<concert id>.",
        br: "Publique em /live/<id do show>.",
        es: "Publica en /live/<id del concierto>.",
        cn: "请发布到 /live/<演出 ID>。",
        ir: "به ‎/live/<شناسهٔ کنسرت> منتشر کنید.",
    }
    IngestChunkedToHttpPort {
        gb: "Chunked uploads go to the HTTP port (e.g. encore push).",
        br: "Envios em partes (chunked) vão para a porta HTTP (por exemplo, encore push).",
        es: "Los envíos por partes (chunked) van al puerto HTTP (por ejemplo, encore push).",
        cn: "分块（chunked）上传请发送到 HTTP 端口（例如 encore push）。",
        ir: "ارسال‌های تکه‌ای (chunked) باید به درگاه HTTP بروند (مثلاً encore push).",
    }
    IngestHelloFirst {
        gb: "Send { ticket or key, mimeType } first.",
        br: "Envie primeiro { ticket or key, mimeType }.",
        es: "Envía primero { ticket or key, mimeType }.",
        cn: "请先发送 { ticket or key, mimeType }。",
        ir: "ابتدا { ticket or key, mimeType } را بفرستید.",
    }
    IngestWrongKey {
        gb: "Wrong stream key.",
        br: "Chave de transmissão incorreta.",
        es: "Clave de emisión incorrecta.",
        cn: "推流密钥错误。",
        ir: "کلید پخش نادرست است.",
    }
    IngestNotOpen {
        gb: "This concert is not open for streaming.",
        br: "Este show não está aberto para transmissão.",
        es: "Este concierto no está abierto para emitir.",
        cn: "这场演出尚未开放推流。",
        ir: "این کنسرت برای پخش باز نیست.",
    }
    IngestUnsupportedFormat {
        gb: "Send AAC in ADTS (Content-Type: audio/aac) or MP3 (audio/mpeg).",
        br: "Envie AAC em ADTS (Content-Type: audio/aac) ou MP3 (audio/mpeg).",
        es: "Envía AAC en ADTS (Content-Type: audio/aac) o MP3 (audio/mpeg).",
        cn: "请发送 ADTS 封装的 AAC（Content-Type: audio/aac）或 MP3（audio/mpeg）。",
        ir: "AAC در قالب ADTS (Content-Type: audio/aac) یا MP3 (audio/mpeg) بفرستید.",
    }
    IngestCannotDecode {
        gb: "This server cannot decode that format; send AAC in ADTS.",
        br: "Este servidor não consegue decodificar esse formato; envie AAC em ADTS.",
        es: "Este servidor no puede decodificar ese formato; envía AAC en ADTS.",
        cn: "本服务器无法解码该格式，请发送 ADTS 封装的 AAC。",
        ir: "این سرور نمی‌تواند آن قالب را رمزگشایی کند؛ AAC در قالب ADTS بفرستید.",
    }
    IngestQuotaReached {
        gb: "This show's recording has reached its size limit.",
        br: "A gravação deste show atingiu o limite de tamanho.",
        es: "La grabación de este concierto ha alcanzado su límite de tamaño.",
        cn: "这场演出的录音已达到大小上限。",
        ir: "ضبط این اجرا به سقف حجم خود رسیده است.",
    }
    IngestAnotherPublisher {
        gb: "Another encoder is publishing this concert.",
        br: "Outro codificador já está transmitindo este show.",
        es: "Otro codificador ya está emitiendo este concierto.",
        cn: "另一个编码器正在为这场演出推流。",
        ir: "رمزگذار دیگری در حال پخش این کنسرت است.",
    }
    IngestShowEnded {
        gb: "This show has ended.",
        br: "Este show terminou.",
        es: "Este concierto ha terminado.",
        cn: "这场演出已结束。",
        ir: "این اجرا به پایان رسیده است.",
    }
    StartTooLate {
        gb: "startsAt must be before the year 9999.",
        br: "startsAt deve ser anterior ao ano 9999.",
        es: "startsAt debe ser anterior al año 9999.",
        cn: "startsAt 必须早于 9999 年。",
        ir: "startsAt باید پیش از سال 9999 باشد.",
    }
    // Notifications of what happens (issue 13), each in its recipient's language. Read on
    // a lock screen: what happened, to which concert, for how much; no technical words for
    // fans. docs/notifications.md lists them all.
    NoticeStartingSoonTitle {
        gb: "{title} starts in 15 minutes",
        br: "{title} começa em 15 minutos",
        es: "{title} empieza en 15 minutos",
        cn: "{title} 将在 15 分钟后开始",
        ir: "{title} تا ۱۵ دقیقهٔ دیگر شروع می‌شود",
    }
    NoticeStartingSoonBody {
        gb: "Doors are open: {artist} goes on stage soon.",
        br: "As portas estão abertas: {artist} sobe ao palco em breve.",
        es: "Las puertas están abiertas: {artist} sale al escenario en breve.",
        cn: "已开门：{artist} 即将登台。",
        ir: "درها باز است؛ {artist} به‌زودی روی صحنه می‌آید.",
    }
    NoticeDoorsOpenBody {
        gb: "The doors are open: {artist} goes on stage soon. A ticket lets you listen.",
        br: "As portas estão abertas: {artist} sobe ao palco em breve. Com um ingresso, você ouve.",
        es: "Las puertas están abiertas: {artist} sale al escenario en breve. Con una entrada puedes escuchar.",
        cn: "已开放入场：{artist} 即将登台。购票即可收听。",
        ir: "درها باز شده است: {artist} به‌زودی روی صحنه می‌رود. با بلیت می‌توانید بشنوید.",
    }
    NoticeLiveNowTitle {
        gb: "{title} is live now",
        br: "{title} está ao vivo agora",
        es: "{title} ya está en directo",
        cn: "{title} 正在直播",
        ir: "پخش زندهٔ {title} شروع شد",
    }
    NoticeLiveNowBody {
        gb: "{artist} is on stage: listen now.",
        br: "{artist} está no palco: ouça agora.",
        es: "{artist} está en el escenario: escucha ahora.",
        cn: "{artist} 已登台，立即收听。",
        ir: "{artist} روی صحنه است؛ همین حالا گوش کنید.",
    }
    NoticeEndedTitle {
        gb: "{title} has ended",
        br: "{title} terminou",
        es: "{title} ha terminado",
        cn: "{title} 已结束",
        ir: "{title} به پایان رسید",
    }
    NoticeRescheduledTitle {
        gb: "{title} has a new start time",
        br: "{title} tem um novo horário",
        es: "{title} tiene un nuevo horario",
        cn: "{title} 的开始时间已更改",
        ir: "زمان شروع {title} تغییر کرد",
    }
    // {when} and {until} are a [`Arg::time`]: the reader's clock time and zone.
    NoticeRescheduledBody {
        gb: "It now starts on {when}.",
        br: "Agora começa em {when}.",
        es: "Ahora empieza el {when}.",
        cn: "现在的开始时间为 {when}。",
        ir: "اکنون در {when} آغاز می‌شود.",
    }
    NoticeEndedBody {
        gb: "You can listen to the replay until {until}.",
        br: "Você pode ouvir a reprise até {until}.",
        es: "Puedes escuchar la repetición hasta el {until}.",
        cn: "您可以在 {until} 之前收听回放。",
        ir: "تا {until} می‌توانید بازپخش آن را بشنوید.",
    }
    // A time on the reader's clocks, naming their zone (an IANA name, or UTC).
    TimeInZone {
        gb: "{time} ({zone})",
        br: "{time} ({zone})",
        es: "{time} ({zone})",
        cn: "{time}（{zone}）",
        ir: "{time} (به وقت {zone})",
    }
    NoticeCancelledTitle {
        gb: "{title} has been cancelled",
        br: "{title} foi cancelado",
        es: "{title} se ha cancelado",
        cn: "{title} 已取消",
        ir: "{title} لغو شد",
    }
    NoticeCancelledBody {
        gb: "Your ticket has been refunded ({amount}).",
        br: "Seu ingresso foi reembolsado ({amount}).",
        es: "Te hemos devuelto el importe de la entrada ({amount}).",
        cn: "您的门票已全额退款（{amount}）。",
        ir: "مبلغ بلیتتان ({amount}) به شما بازگردانده شد.",
    }
    NoticeFirstListenerTitle {
        gb: "{title}: your first listener",
        br: "{title}: seu primeiro ouvinte",
        es: "{title}: tu primer oyente",
        cn: "{title}：您的第一位听众",
        ir: "{title}: نخستین شنوندهٔ شما",
    }
    NoticeFirstListenerBody {
        gb: "Someone has just started listening to your show.",
        br: "Alguém acabou de começar a ouvir o seu show.",
        es: "Alguien acaba de empezar a escuchar tu concierto.",
        cn: "有人刚刚开始收听您的演出。",
        ir: "نخستین شنونده همین حالا به اجرای شما پیوست.",
    }
    NoticeArtistSaleTitle {
        gb: "Ticket sold: {title}",
        br: "Ingresso vendido: {title}",
        es: "Entrada vendida: {title}",
        cn: "门票售出：{title}",
        ir: "بلیت فروخته شد: {title}",
    }
    NoticeArtistSaleBody {
        gb: "A fan bought a ticket for {amount}.",
        br: "Um fã comprou um ingresso por {amount}.",
        es: "Un fan ha comprado una entrada por {amount}.",
        cn: "一位乐迷以 {amount} 购买了门票。",
        ir: "یکی از طرفداران بلیتی به مبلغ {amount} خرید.",
    }
    NoticePaymentFailedTitle {
        gb: "Payment failed",
        br: "Pagamento recusado",
        es: "Pago fallido",
        cn: "付款失败",
        ir: "پرداخت ناموفق بود",
    }
    NoticePaymentFailedBody {
        gb: "{buyer} could not pay {total}: {reason}.",
        br: "{buyer} não conseguiu pagar {total}: {reason}.",
        es: "{buyer} no ha podido pagar {total}: {reason}.",
        cn: "{buyer} 未能支付 {total}：{reason}。",
        ir: "{buyer} نتوانست {total} را بپردازد: {reason}.",
    }
    // Why a payment failed, as the staff read it (the buyer read the card's own message).
    NoticeWhyDeclined {
        gb: "the card was declined",
        br: "o cartão foi recusado",
        es: "la tarjeta fue rechazada",
        cn: "银行卡被拒绝",
        ir: "کارت رد شد",
    }
    NoticeWhyInsufficientFunds {
        gb: "the card had insufficient funds",
        br: "o cartão não tinha saldo suficiente",
        es: "la tarjeta no tenía fondos suficientes",
        cn: "银行卡余额不足",
        ir: "موجودی کارت کافی نبود",
    }
    NoticeWhyFailedLater {
        gb: "the payment failed after checkout",
        br: "o pagamento falhou depois da finalização da compra",
        es: "el pago falló después de finalizar la compra",
        cn: "结账后付款失败",
        ir: "پرداخت پس از تسویه‌حساب ناموفق شد",
    }
    // The fan's own: an order paid, a refund, an account made for them, a new picture.
    NoticeTipPaidTitle {
        gb: "Thank you for your tip",
        br: "Obrigado pela sua gorjeta",
        es: "Gracias por tu propina",
        cn: "感谢您的打赏",
        ir: "از انعام شما سپاسگزاریم",
    }
    TipFor {
        gb: "Tip to {artist} for {title}",
        br: "Gorjeta para {artist} por {title}",
        es: "Propina para {artist} por {title}",
        cn: "给 {artist} 的打赏（{title}）",
        ir: "انعام به {artist} برای {title}",
    }
    TipReceiptSubject {
        gb: "Your Encore tip",
        br: "Sua gorjeta no Encore",
        es: "Tu propina en Encore",
        cn: "您在 Encore 的打赏",
        ir: "انعام شما در Encore",
    }
    TipReceiptBody {
        gb: "Hello {name},\n\nThank you for your tip (order {order}).\n\n  {what} — {total}\n\nIts receipt: {url}/receipts/{order}\n",
        br: "Olá, {name},\n\nObrigado pela sua gorjeta (pedido {order}).\n\n  {what} — {total}\n\nO recibo: {url}/receipts/{order}\n",
        es: "Hola, {name}:\n\nGracias por tu propina (pedido {order}).\n\n  {what} — {total}\n\nEl recibo: {url}/receipts/{order}\n",
        cn: "{name}，您好：\n\n感谢您的打赏（订单 {order}）。\n\n  {what} — {total}\n\n收据：{url}/receipts/{order}\n",
        ir: "{name} عزیز، سلام\n\nاز انعام شما سپاسگزاریم (سفارش {order}).\n\n  {what} — {total}\n\nرسید: {url}/receipts/{order}\n",
    }
    NoticeOrderConfirmedTitle {
        gb: "Order confirmed",
        br: "Pedido confirmado",
        es: "Pedido confirmado",
        cn: "订单已确认",
        ir: "سفارش شما تأیید شد",
    }
    NoticeOrderConfirmedBody {
        gb: "You paid {total} for {items}.",
        br: "Você pagou {total} por {items}.",
        es: "Has pagado {total} por {items}.",
        cn: "您已为 {items} 支付 {total}。",
        ir: "برای {items} مبلغ {total} پرداخت کردید.",
    }
    NoticeRefundIssuedTitle {
        gb: "You were refunded {amount}",
        br: "Você foi reembolsado em {amount}",
        es: "Te hemos reembolsado {amount}",
        cn: "已向您退款 {amount}",
        ir: "{amount} به شما بازگردانده شد",
    }
    NoticeRefundIssuedBody {
        gb: "Reason: {reason}",
        br: "Motivo: {reason}",
        es: "Motivo: {reason}",
        cn: "原因：{reason}",
        ir: "دلیل: {reason}",
    }
    NoticeWelcomeTitle {
        gb: "Welcome to Encore",
        br: "Boas-vindas ao Encore",
        es: "Te damos la bienvenida a Encore",
        cn: "欢迎加入 Encore",
        ir: "به Encore خوش آمدید",
    }
    NoticeWelcomeBody {
        gb: "{inviter} created your account. Enjoy the shows!",
        br: "{inviter} criou sua conta. Aproveite os shows!",
        es: "{inviter} ha creado tu cuenta. ¡Disfruta de los conciertos!",
        cn: "{inviter} 为您创建了账户。祝您享受演出！",
        ir: "{inviter} حساب شما را ساخت. از اجراها لذت ببرید!",
    }
    NoticeAvatarTitle {
        gb: "Profile picture updated",
        br: "Foto de perfil atualizada",
        es: "Foto de perfil actualizada",
        cn: "头像已更新",
        ir: "تصویر نمایه به‌روز شد",
    }
    NoticeAvatarOwnBody {
        gb: "Your new picture is in place.",
        br: "Sua nova foto já aparece no perfil.",
        es: "Tu nueva foto ya aparece en el perfil.",
        cn: "您的新头像已生效。",
        ir: "تصویر تازهٔ شما جایگزین شد.",
    }
    NoticeAvatarBody {
        gb: "{name} changed your profile picture.",
        br: "{name} trocou sua foto de perfil.",
        es: "{name} ha cambiado tu foto de perfil.",
        cn: "{name} 更换了您的头像。",
        ir: "{name} تصویر نمایهٔ شما را عوض کرد.",
    }
    // Markers (song titles) of a show, from the encoder or the artist (issue 18).
    MarkerNotFound {
        gb: "No such marker in this show.",
        br: "Esse marcador não existe neste show.",
        es: "Ese marcador no existe en este concierto.",
        cn: "这场演出没有这个标记。",
        ir: "چنین نشانگری در این اجرا وجود ندارد.",
    }
    MarkerTitleEmpty {
        gb: "A marker needs a title.",
        br: "Um marcador precisa de um título.",
        es: "Un marcador necesita un título.",
        cn: "标记需要一个标题。",
        ir: "نشانگر به عنوان نیاز دارد.",
    }
    MarkerTextTooLong {
        gb: "A title or an artist has at most 255 characters.",
        br: "Um título ou um artista tem no máximo 255 caracteres.",
        es: "Un título o un artista tiene como máximo 255 caracteres.",
        cn: "标题或艺人名最多 255 个字符。",
        ir: "عنوان یا نام هنرمند حداکثر ۲۵۵ نویسه است.",
    }
    MarkerOutsideRecording {
        gb: "atMs must be between 0 and the {recorded} ms recorded so far.",
        br: "atMs deve estar entre 0 e os {recorded} ms gravados até agora.",
        es: "atMs debe estar entre 0 y los {recorded} ms grabados hasta ahora.",
        cn: "atMs 必须在 0 到目前已录制的 {recorded} 毫秒之间。",
        ir: "atMs باید بین 0 و {recorded} میلی‌ثانیهٔ ضبط‌شده تا کنون باشد.",
    }
    MarkerNothingRecorded {
        gb: "Nothing is recorded yet: a marker needs the show to be on air.",
        br: "Nada foi gravado ainda: um marcador precisa do show no ar.",
        es: "Aún no hay nada grabado: un marcador necesita el concierto en el aire.",
        cn: "尚未录制任何内容：添加标记需要演出正在播出。",
        ir: "هنوز چیزی ضبط نشده است: نشانگر به اجرای روی آنتن نیاز دارد.",
    }
    MarkersFull {
        gb: "This show has its maximum of {max} markers.",
        br: "Este show já tem o máximo de {max} marcadores.",
        es: "Este concierto ya tiene el máximo de {max} marcadores.",
        cn: "这场演出的标记已达上限 {max} 个。",
        ir: "این اجرا به سقف {max} نشانگر رسیده است.",
    }
    MarkerTooSoon {
        gb: "At most one title a second: this one was not kept.",
        br: "No máximo um título por segundo: este não foi guardado.",
        es: "Como máximo un título por segundo: este no se ha guardado.",
        cn: "每秒最多一个标题：这个未被保存。",
        ir: "حداکثر یک عنوان در ثانیه: این یکی نگه داشته نشد.",
    }
    // The live room (issue 29). {seconds} and {max} are figures; {until} an [`Arg::time`].
    ChatNotOpen {
        gb: "The chat opens with the doors, 15 minutes before the start.",
        br: "O chat abre com as portas, 15 minutos antes do início.",
        es: "El chat se abre con las puertas, 15 minutos antes del inicio.",
        cn: "聊天在开门时开放，即开始前 15 分钟。",
        ir: "گفتگو با باز شدن درها، ۱۵ دقیقه پیش از شروع، باز می‌شود.",
    }
    ChatReadOnly {
        gb: "This chat no longer takes messages: it plays back with the replay.",
        br: "Este chat não aceita mais mensagens: ele é reproduzido com o replay.",
        es: "Este chat ya no admite mensajes: se reproduce con la repetición.",
        cn: "此聊天已不再接收消息：它会随回放一起重播。",
        ir: "این گفتگو دیگر پیام نمی‌پذیرد: همراه با بازپخش نمایش داده می‌شود.",
    }
    ChatClosed {
        gb: "The artist's team closed the chat for now.",
        br: "A equipe do artista fechou o chat por enquanto.",
        es: "El equipo del artista ha cerrado el chat por ahora.",
        cn: "艺人团队暂时关闭了聊天。",
        ir: "تیم هنرمند فعلاً گفتگو را بسته است.",
    }
    ChatEmpty {
        gb: "Write a message first.",
        br: "Escreva uma mensagem primeiro.",
        es: "Escribe un mensaje primero.",
        cn: "请先输入消息。",
        ir: "اول پیامی بنویسید.",
    }
    TipBelowMinimum {
        gb: "A tip is at least {minimum}.",
        br: "Uma gorjeta é de no mínimo {minimum}.",
        es: "Una propina es de al menos {minimum}.",
        cn: "打赏金额至少为 {minimum}。",
        ir: "انعام دست‌کم {minimum} است.",
    }
    TipAboveMaximum {
        gb: "A tip is at most {maximum}.",
        br: "Uma gorjeta é de no máximo {maximum}.",
        es: "Una propina es como máximo de {maximum}.",
        cn: "打赏金额最多为 {maximum}。",
        ir: "انعام حداکثر {maximum} است.",
    }
    TipsOff {
        gb: "The artist has turned tips off for this concert.",
        br: "O artista desativou as gorjetas para este show.",
        es: "El artista ha desactivado las propinas para este concierto.",
        cn: "艺人已关闭本场演出的打赏。",
        ir: "هنرمند انعام را برای این کنسرت خاموش کرده است.",
    }
    TipMinimumRange {
        gb: "The smallest tip must be more than 0 and at most {maximum}.",
        br: "A menor gorjeta deve ser maior que 0 e no máximo {maximum}.",
        es: "La propina mínima debe ser mayor que 0 y como máximo de {maximum}.",
        cn: "最低打赏金额必须大于 0 且不超过 {maximum}。",
        ir: "کمترین انعام باید بیشتر از ۰ و حداکثر {maximum} باشد.",
    }
    TipPresetsRange {
        gb: "Each suggested tip must be from the minimum to {maximum}.",
        br: "Cada gorjeta sugerida deve ir do mínimo até {maximum}.",
        es: "Cada propina sugerida debe ir del mínimo a {maximum}.",
        cn: "每个建议打赏金额必须在最低金额与 {maximum} 之间。",
        ir: "هر انعام پیشنهادی باید از کمترین مبلغ تا {maximum} باشد.",
    }
    TipPresetsCount {
        gb: "Suggest from 1 to {max} tip amounts.",
        br: "Sugira de 1 a {max} valores de gorjeta.",
        es: "Sugiere de 1 a {max} importes de propina.",
        cn: "请建议 1 到 {max} 个打赏金额。",
        ir: "از ۱ تا {max} مبلغ انعام پیشنهاد دهید.",
    }
    TipMessageTooLong {
        gb: "A tip's message is at most {max} characters.",
        br: "A mensagem de uma gorjeta tem no máximo {max} caracteres.",
        es: "El mensaje de una propina tiene como máximo {max} caracteres.",
        cn: "打赏留言最多 {max} 个字符。",
        ir: "پیام انعام حداکثر {max} نویسه است.",
    }
    TipLineTitle {
        gb: "A tip for {artist}",
        br: "Uma gorjeta para {artist}",
        es: "Una propina para {artist}",
        cn: "给 {artist} 的打赏",
        ir: "انعام برای {artist}",
    }
    ChatTooLong {
        gb: "A message is at most {max} characters.",
        br: "Uma mensagem tem no máximo {max} caracteres.",
        es: "Un mensaje tiene como máximo {max} caracteres.",
        cn: "消息最多 {max} 个字符。",
        ir: "هر پیام حداکثر {max} نویسه است.",
    }
    ChatSlowMode {
        gb: "Slow mode: one message every {seconds} seconds. Try again in {wait} seconds.",
        br: "Modo lento: uma mensagem a cada {seconds} segundos. Tente de novo em {wait} segundos.",
        es: "Modo lento: un mensaje cada {seconds} segundos. Inténtalo de nuevo en {wait} segundos.",
        cn: "慢速模式：每 {seconds} 秒一条消息。请在 {wait} 秒后重试。",
        ir: "حالت آهسته: هر {seconds} ثانیه یک پیام. {wait} ثانیهٔ دیگر دوباره بفرستید.",
    }
    ChatRepeated {
        gb: "You just sent that. Write something new.",
        br: "Você acabou de enviar isso. Escreva algo novo.",
        es: "Acabas de enviar eso. Escribe algo nuevo.",
        cn: "你刚刚发过这条消息，请写点新的。",
        ir: "همین را الان فرستادید. چیز تازه‌ای بنویسید.",
    }
    ChatTooFast {
        gb: "You are sending messages too fast. Try again in {seconds} seconds.",
        br: "Você está enviando mensagens rápido demais. Tente de novo em {seconds} segundos.",
        es: "Estás enviando mensajes demasiado rápido. Inténtalo de nuevo en {seconds} segundos.",
        cn: "你发送消息太快了。请在 {seconds} 秒后重试。",
        ir: "پیام‌ها را خیلی سریع می‌فرستید. {seconds} ثانیهٔ دیگر دوباره امتحان کنید.",
    }
    ChatRoomBusy {
        gb: "The room is very busy. Try again in a moment.",
        br: "A sala está muito movimentada. Tente de novo em instantes.",
        es: "La sala está muy concurrida. Inténtalo de nuevo en un momento.",
        cn: "聊天室非常繁忙，请稍后重试。",
        ir: "اتاق خیلی شلوغ است. کمی بعد دوباره امتحان کنید.",
    }
    ChatTimedOut {
        gb: "A moderator paused your messages in this chat until {until}.",
        br: "Um moderador pausou suas mensagens neste chat até {until}.",
        es: "Un moderador ha pausado tus mensajes en este chat hasta {until}.",
        cn: "管理员已暂停你在此聊天中发言，直到 {until}。",
        ir: "یک ناظر پیام‌های شما را در این گفتگو تا {until} متوقف کرده است.",
    }
    ChatTimedOutShow {
        gb: "A moderator paused your messages in this chat for the rest of the show.",
        br: "Um moderador pausou suas mensagens neste chat até o fim do show.",
        es: "Un moderador ha pausado tus mensajes en este chat hasta el final del concierto.",
        cn: "管理员已暂停你在此聊天中发言，直到演出结束。",
        ir: "یک ناظر پیام‌های شما را در این گفتگو تا پایان اجرا متوقف کرده است.",
    }
    ChatBanned {
        gb: "You can no longer take part in this artist's chats.",
        br: "Você não pode mais participar dos chats deste artista.",
        es: "Ya no puedes participar en los chats de este artista.",
        cn: "你已不能再参与该艺人的聊天。",
        ir: "دیگر نمی‌توانید در گفتگوهای این هنرمند شرکت کنید.",
    }
    ChatMessageNotFound {
        gb: "That message is not in this chat (it may have been deleted).",
        br: "Essa mensagem não está neste chat (pode ter sido apagada).",
        es: "Ese mensaje no está en este chat (puede que se haya borrado).",
        cn: "此聊天中没有该消息（可能已被删除）。",
        ir: "این پیام در این گفتگو نیست (شاید حذف شده باشد).",
    }
    ChatReportNotFound {
        gb: "That report is not in this chat.",
        br: "Essa denúncia não está neste chat.",
        es: "Esa denuncia no está en este chat.",
        cn: "此聊天中没有该举报。",
        ir: "این گزارش در این گفتگو نیست.",
    }
    ChatNotYours {
        gb: "Only its author and the moderators can delete a message.",
        br: "Só o autor e os moderadores podem apagar uma mensagem.",
        es: "Solo su autor y los moderadores pueden borrar un mensaje.",
        cn: "只有作者和管理员可以删除消息。",
        ir: "فقط نویسنده و ناظران می‌توانند پیامی را حذف کنند.",
    }
    ChatModeratorsOnly {
        gb: "Only the artist's team and staff moderate the chat.",
        br: "Só a equipe do artista e a equipe da plataforma moderam o chat.",
        es: "Solo el equipo del artista y el personal moderan el chat.",
        cn: "只有艺人团队和工作人员可以管理聊天。",
        ir: "فقط تیم هنرمند و کارکنان گفتگو را مدیریت می‌کنند.",
    }
    ChatModeratorExempt {
        gb: "The artist's team and staff cannot be timed out or banned.",
        br: "A equipe do artista e a da plataforma não podem ser pausadas nem banidas.",
        es: "El equipo del artista y el personal no pueden ser pausados ni expulsados.",
        cn: "艺人团队和工作人员不能被禁言或封禁。",
        ir: "تیم هنرمند و کارکنان را نمی‌توان متوقف یا محروم کرد.",
    }
    ChatNotAReader {
        gb: "That account has no place in this chat.",
        br: "Essa conta não participa deste chat.",
        es: "Esa cuenta no participa en este chat.",
        cn: "该账户不在此聊天中。",
        ir: "این حساب در این گفتگو جایی ندارد.",
    }
    ChatSlowModeRange {
        gb: "Slow mode is between 0 and {max} seconds.",
        br: "O modo lento vai de 0 a {max} segundos.",
        es: "El modo lento va de 0 a {max} segundos.",
        cn: "慢速模式为 0 到 {max} 秒。",
        ir: "حالت آهسته بین ۰ تا {max} ثانیه است.",
    }
    ChatReactionCount {
        gb: "Send between 1 and {max} reactions at a time.",
        br: "Envie de 1 a {max} reações por vez.",
        es: "Envía entre 1 y {max} reacciones a la vez.",
        cn: "每次发送 1 到 {max} 个反应。",
        ir: "هر بار بین ۱ تا {max} واکنش بفرستید.",
    }
    OnlyManagersEditMarkers {
        gb: "Only administrators and the project's artists change a show's markers.",
        br: "Só administradores e os artistas do projeto alteram os marcadores de um show.",
        es: "Solo los administradores y los artistas del proyecto cambian los marcadores de un concierto.",
        cn: "只有管理员和该项目的艺人可以修改演出的标记。",
        ir: "فقط مدیران و هنرمندان پروژه نشانگرهای یک اجرا را تغییر می‌دهند.",
    }

    // The demo's own data (`encore serve --demo`), shown in the reader's language.
    DemoOpeningTitle {
        gb: "Opening Night (demo concert)",
        br: "Noite de Estreia (concerto de demonstração)",
        es: "Noche de estreno (concierto de demostración)",
        cn: "首演之夜（演示音乐会）",
        ir: "شب افتتاحیه (کنسرت نمایشی)",
    }
    DemoOpeningDescription {
        gb: "A demo concert: buy it with the test card 4242 4242 4242 4242.",
        br: "Um concerto de demonstração: compre com o cartão de teste 4242 4242 4242 4242.",
        es: "Un concierto de demostración: cómpralo con la tarjeta de prueba 4242 4242 4242 4242.",
        cn: "一场演示音乐会：用测试卡 4242 4242 4242 4242 购买。",
        ir: "یک کنسرت نمایشی: آن را با کارت آزمایشی 4242 4242 4242 4242 بخرید.",
    }
    DemoLateTitle {
        gb: "Late Set (demo concert)",
        br: "Show da Madrugada (concerto de demonstração)",
        es: "Sesión nocturna (concierto de demostración)",
        cn: "深夜场（演示音乐会）",
        ir: "اجرای آخر شب (کنسرت نمایشی)",
    }
    DemoLateDescription {
        gb: "The house band's next show, three days from now: a demo of an upcoming concert.",
        br: "O próximo show da banda da casa, daqui a três dias: a demonstração de um concerto futuro.",
        es: "El próximo concierto de la banda de la casa, dentro de tres días: la demostración de un concierto próximo.",
        cn: "驻场乐队三天后的下一场演出：一场即将开始的音乐会的演示。",
        ir: "اجرای بعدی گروه خانه، سه روز دیگر: نمونه‌ای از یک کنسرت آینده.",
    }
    DemoPassName {
        gb: "All-access month",
        br: "Mês de acesso total",
        es: "Mes de acceso total",
        cn: "全场通行月票",
        ir: "یک ماه دسترسی کامل",
    }
    // An order line of a pass, as its receipt names it (stored in English at checkout).
    PassLine {
        gb: "{name} ({days} days)",
        br: "{name} ({days} dias)",
        es: "{name} ({days} días)",
        cn: "{name}（{days} 天）",
        ir: "{name} ({days} روز)",
    }
    PassLineOneDay {
        gb: "{name} (1 day)",
        br: "{name} (1 dia)",
        es: "{name} (1 día)",
        cn: "{name}（1 天）",
        ir: "{name} (۱ روز)",
    }
    DefaultTierName {
        gb: "Standard",
        br: "Padrão",
        es: "General",
        cn: "标准票",
        ir: "عادی",
    }
    DemoPassDescription {
        gb: "Every concert starting in the next 30 days.",
        br: "Todos os concertos que começam nos próximos 30 dias.",
        es: "Todos los conciertos que empiezan en los próximos 30 días.",
        cn: "未来 30 天内开始的所有音乐会。",
        ir: "همهٔ کنسرت‌هایی که در ۳۰ روز آینده شروع می‌شوند.",
    }
}

/// A stored text names its message by its key (`{"msg": "NoticeOnAirTitle", ...}`); a key
/// a later version no longer has fails to read, and the reader falls back to what was
/// written when it was stored.
impl Serialize for Msg {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.key())
    }
}

impl<'de> Deserialize<'de> for Msg {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let key = String::deserialize(deserializer)?;
        Msg::from_key(&key).ok_or_else(|| serde::de::Error::custom(format!("no message {key:?}")))
    }
}

/// An argument of a message: plain text, a figure (an amount, a count) written in the
/// reader's digits, an instant written on the reader's clocks, or a text rendered in the
/// same language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Arg {
    Plain(String),
    Figure(String),
    /// Unix ms.
    Time(i64),
    Text(Box<Text>),
}

impl Arg {
    /// `12.50 EUR`, `2025-06-01 21:00`, `30`: in Persian `۱۲٫۵۰ EUR`, `۲۰۲۵-۰۶-۰۱ ۲۱:۰۰`, `۳۰`,
    /// like the Persian template around it (one digit system per language).
    pub fn figure(value: impl Into<String>) -> Arg {
        Arg::Figure(value.into())
    }

    /// An instant (unix ms), written for each reader in their own time zone and naming it:
    /// `2026-11-24 22:30 (Asia/Tehran)`, `2026-11-24 19:00 (UTC)` for a reader whose zone is
    /// unknown.
    pub fn time(ms: i64) -> Arg {
        Arg::Time(ms)
    }

    pub fn render(&self, lang: Lang, zone: &Zone) -> String {
        match self {
            Arg::Plain(s) => s.clone(),
            Arg::Time(ms) => Msg::TimeInZone
                .with("time", Arg::figure(zone.minutes(*ms)))
                // The name stays as the database spells it (`Etc/GMT+3` keeps its digits).
                .with("zone", zone.name())
                .render_in(lang, zone),
            Arg::Figure(s) => figure_in(lang, s),
            Arg::Text(t) => t.render_in(lang, zone),
        }
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Self {
        Arg::Plain(s)
    }
}
impl From<&str> for Arg {
    fn from(s: &str) -> Self {
        Arg::Plain(s.to_owned())
    }
}
impl From<Msg> for Arg {
    fn from(m: Msg) -> Self {
        Arg::Text(Box::new(m.into()))
    }
}
impl From<Text> for Arg {
    fn from(t: Text) -> Self {
        Arg::Text(Box::new(t))
    }
}
/// `figure` (an amount, a count, `2025-06-01 21:00`) in `lang`'s digits: Persian digits and
/// decimal separator for Persian (`12.50 EUR` → `۱۲٫۵۰ EUR`), as written for the others. For a
/// figure set into a text that is not a message (an e-mail's lines, a page's table).
pub fn figure_in(lang: Lang, figure: &str) -> String {
    if lang != Lang::Persian {
        return figure.to_owned();
    }
    figure
        .chars()
        .map(|c| match c {
            '0'..='9' => char::from_u32('۰' as u32 + (c as u32 - '0' as u32)).unwrap_or(c),
            '.' => '٫',
            other => other,
        })
        .collect()
}

/// A number given to a message is a figure: a count, a limit, a number of seconds, written in
/// the reader's digits. Ids and codes are text (`&str`), and stay as written.
macro_rules! number_args {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Self {
                Arg::Figure(n.to_string())
            }
        }
    )*};
}
number_args!(u32, u64, i64, usize);

/// A message with its arguments, rendered when the reader's language is known. It can be
/// stored (serde) and rendered later for a reader whose language is known only then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Text {
    pub msg: Msg,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    args: Vec<(Cow<'static, str>, Arg)>,
}

impl Msg {
    pub fn with(self, name: &'static str, value: impl Into<Arg>) -> Text {
        Text::from(self).with(name, value)
    }

    pub fn render(self, lang: Lang) -> String {
        Text::from(self).render(lang)
    }
}

impl From<Msg> for Text {
    fn from(msg: Msg) -> Self {
        Text {
            msg,
            args: Vec::new(),
        }
    }
}

impl Text {
    pub fn with(mut self, name: &'static str, value: impl Into<Arg>) -> Text {
        self.args.push((Cow::Borrowed(name), value.into()));
        self
    }

    /// For a reader whose time zone is unknown: times in UTC.
    pub fn render(&self, lang: Lang) -> String {
        self.render_in(lang, &Zone::UTC)
    }

    /// For a reader of `lang` whose clocks show `zone`.
    pub fn render_in(&self, lang: Lang, zone: &Zone) -> String {
        let template = self.msg.template(lang);
        let mut out = String::with_capacity(template.len());
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let value = after.find('}').and_then(|close| {
                let name = &after[..close];
                let arg = self.args.iter().find(|(n, _)| n == name)?;
                Some((close, &arg.1))
            });
            match value {
                Some((close, arg)) => {
                    out.push_str(&arg.render(lang, zone));
                    rest = &after[close + 1..];
                }
                None => {
                    out.push('{');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// English, for logs.
impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Lang::English))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use Lang::{Chinese, English, Persian, Spanish};

    /// Texts that are rightly the same as the English in another language.
    const SAME_AS_ENGLISH: &[(Msg, Lang)] = &[
        // "Total" and "CVC" are the Portuguese and Spanish words too.
        (Msg::PayTotal, Lang::Portuguese),
        (Msg::PayTotal, Lang::Spanish),
        (Msg::PayCvc, Lang::Portuguese),
        (Msg::PayCvc, Lang::Spanish),
        // Only placeholders and a colon: nothing to translate.
        (Msg::TitledReason, Lang::Portuguese),
        (Msg::TitledReason, Lang::Spanish),
        (Msg::TitledReason, Lang::Persian),
        (Msg::TimeInZone, Lang::Portuguese),
        (Msg::TimeInZone, Lang::Spanish),
    ];

    /// Asserts what each reader reads of `text` on `zone`'s clocks: (language, reading).
    fn assert_reads(text: &Text, zone: &Zone, readings: &[(Lang, &str)]) {
        for (lang, reading) in readings {
            assert_eq!(text.render_in(*lang, zone), *reading, "in {lang:?}");
        }
    }

    fn placeholders(template: &str) -> BTreeSet<&str> {
        template
            .split('{')
            .skip(1)
            .filter_map(|part| part.split_once('}').map(|(name, _)| name))
            .collect()
    }

    #[test]
    fn every_message_has_every_language() {
        for msg in Msg::ALL {
            for lang in Lang::ALL {
                assert!(!msg.template(lang).trim().is_empty(), "{msg:?} in {lang:?}");
            }
        }
    }

    #[test]
    fn every_language_of_a_message_has_the_same_placeholders() {
        for msg in Msg::ALL {
            let english = placeholders(msg.template(Lang::English));
            for lang in Lang::ALL {
                assert_eq!(
                    placeholders(msg.template(lang)),
                    english,
                    "{msg:?} in {lang:?}"
                );
            }
        }
    }

    #[test]
    fn no_translation_is_a_copy_of_the_english_unless_allowed() {
        for msg in Msg::ALL {
            for lang in &Lang::ALL[1..] {
                if msg.template(*lang) == msg.template(Lang::English) {
                    assert!(
                        SAME_AS_ENGLISH.contains(&(*msg, *lang)),
                        "{msg:?} in {lang:?} is the English text"
                    );
                }
            }
        }
    }

    #[test]
    fn figures_are_written_in_persian_digits_for_persian_readers_only() {
        let text = Msg::NoticeRefundIssuedTitle.with("amount", Arg::figure("1250.50 EUR"));
        assert_reads(
            &text,
            &Zone::UTC,
            &[
                (Persian, "۱۲۵۰٫۵۰ EUR به شما بازگردانده شد"),
                (English, "You were refunded 1250.50 EUR"),
                (Chinese, "已向您退款 1250.50 EUR"),
            ],
        );
        // Plain arguments (a concert's title) are left as written.
        let titled = Msg::NoticeEndedTitle.with("title", "Live 2025");
        assert_eq!(titled.render(Lang::Persian), "Live 2025 به پایان رسید");
    }

    #[test]
    fn numbers_are_figures_in_persian_digits_for_persian_readers_and_latin_for_english() {
        let text = Msg::CodeIncorrectTriesLeft.with("left", 2u32);
        assert_reads(
            &text,
            &Zone::UTC,
            &[
                (English, "The code is incorrect. 2 tries left."),
                (Persian, "کد نادرست است. ۲ تلاش دیگر باقی مانده است."),
            ],
        );
        let seconds = Msg::RateLimited.with("seconds", 120u64);
        assert!(seconds.render(Lang::Persian).contains("۱۲۰"));
        assert!(seconds.render(Lang::English).contains("in 120 seconds"));
        assert_eq!(Arg::from(1_250i64), Arg::figure("1250"));
        assert_eq!(figure_in(Lang::Persian, "12.50 EUR"), "۱۲٫۵۰ EUR");
        assert_eq!(figure_in(Lang::Spanish, "12.50 EUR"), "12.50 EUR");
    }

    #[test]
    fn times_are_written_on_the_readers_clocks_naming_their_zone() {
        // 2026-11-24 19:00 UTC.
        let text = Msg::NoticeRescheduledBody.with("when", Arg::time(1_795_546_800_000));
        let tehran = Zone::parse("Asia/Tehran").unwrap();
        assert_reads(
            &text,
            &tehran,
            &[
                (English, "It now starts on 2026-11-24 22:30 (Asia/Tehran)."),
                (
                    Persian,
                    "اکنون در ۲۰۲۶-۱۱-۲۴ ۲۲:۳۰ (به وقت Asia/Tehran) آغاز می‌شود.",
                ),
            ],
        );
        assert_reads(
            &text,
            &Zone::UTC,
            &[(Chinese, "现在的开始时间为 2026-11-24 19:00（UTC）。")],
        );
        // A nested text is written for the same reader.
        let nested = Msg::TitledReason.with("title", "T").with("reason", text);
        assert_eq!(
            nested.render_in(Lang::English, &tehran),
            "T: It now starts on 2026-11-24 22:30 (Asia/Tehran)."
        );
    }

    #[test]
    fn arguments_fill_placeholders_and_nested_messages_follow_the_language() {
        let text = Msg::TitledReason
            .with("title", "Opening Night")
            .with("reason", Msg::ConcertSoldOut);
        assert_reads(
            &text,
            &Zone::UTC,
            &[
                (English, "Opening Night: This concert is sold out."),
                (
                    Spanish,
                    "Opening Night: Las entradas de este concierto están agotadas.",
                ),
            ],
        );
        // A placeholder given no argument is left as written, braces and all.
        assert_eq!(
            Msg::CodeIncorrectTriesLeft.render(Lang::English),
            "The code is incorrect. {left} tries left."
        );
        // A brace in an argument is kept as is.
        assert_eq!(
            Msg::InvalidBody.with("detail", "{x}").render(Lang::English),
            "Invalid request body: {x}"
        );
    }

    #[test]
    fn a_stored_text_renders_later_as_it_would_have_then() {
        let tehran = Zone::of_stored(Some("Asia/Tehran"));
        let text = Msg::TitledReason
            .with("title", "Opening Night")
            .with(
                "reason",
                Msg::NoticeRescheduledBody.with("when", Arg::time(1_764_009_000_000)),
            )
            .with("unused", 12_i64);
        let stored = serde_json::to_string(&text).unwrap();
        let read: Text = serde_json::from_str(&stored).unwrap();
        assert_eq!(read, text);
        for lang in Lang::ALL {
            assert_eq!(read.render_in(lang, &tehran), text.render_in(lang, &tehran));
        }
        // Every message is found again by its key.
        for msg in Msg::ALL {
            assert_eq!(Msg::from_key(msg.key()), Some(*msg));
        }
        // A message a later version dropped does not read: the caller keeps what was written.
        assert!(serde_json::from_str::<Text>(r#"{"msg":"NoSuchMessage"}"#).is_err());
    }
}
