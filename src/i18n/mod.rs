//! The five languages of the dashboard, and which one a request reads. Every text a person
//! reads from the server (errors, refusals, the test-checkout page, e-mails, SMS) comes from
//! [`catalog`]; the request's language is chosen once, by [`layer`], from `Accept-Language`.

pub mod catalog;
pub mod zone;

use axum::extract::Request;
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;

pub use catalog::{Arg, Msg, Text, figure_in};
pub use zone::Zone;

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
)]
// On the wire and in storage each is the dashboard's locale key (`gb`, `br`, `es`, `cn`,
// `ir`, as the specification names them); in the code, the language.
pub enum Lang {
    /// English (en-GB): the default and the fallback.
    #[default]
    #[serde(rename = "gb")]
    English,
    /// Brazilian Portuguese.
    #[serde(rename = "br")]
    Portuguese,
    #[serde(rename = "es")]
    Spanish,
    /// Simplified Chinese.
    #[serde(rename = "cn")]
    Chinese,
    /// Persian, written right to left.
    #[serde(rename = "ir")]
    Persian,
}

impl Lang {
    pub const ALL: [Lang; 5] = [
        Lang::English,
        Lang::Portuguese,
        Lang::Spanish,
        Lang::Chinese,
        Lang::Persian,
    ];

    /// The dashboard's code for the language (as stored on accounts).
    pub fn code(self) -> &'static str {
        match self {
            Lang::English => "gb",
            Lang::Portuguese => "br",
            Lang::Spanish => "es",
            Lang::Chinese => "cn",
            Lang::Persian => "ir",
        }
    }

    /// The BCP 47 tag for an HTML page's `lang`.
    pub fn html_lang(self) -> &'static str {
        match self {
            Lang::English => "en-GB",
            Lang::Portuguese => "pt-BR",
            Lang::Spanish => "es",
            Lang::Chinese => "zh-CN",
            Lang::Persian => "fa",
        }
    }

    pub fn rtl(self) -> bool {
        self == Lang::Persian
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.code() == code)
    }

    /// The language of a language tag's primary subtag (`fa-IR` → Persian).
    fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.split(['-', '_']).next()?.trim();
        match primary.to_ascii_lowercase().as_str() {
            "en" => Some(Lang::English),
            "pt" => Some(Lang::Portuguese),
            "es" => Some(Lang::Spanish),
            "zh" => Some(Lang::Chinese),
            "fa" => Some(Lang::Persian),
            _ => None,
        }
    }

    /// The best of our languages for an `Accept-Language` value (RFC 9110 12.5.4): tags in
    /// order of their q-values (ties keep their order, q=0 means "not this"); the first we
    /// speak wins; English when none is spoken or the header is absent.
    pub fn from_accept_language(value: Option<&str>) -> Lang {
        let Some(value) = value else {
            return Lang::English;
        };
        let mut ranked: Vec<(f32, &str)> = value
            .split(',')
            .filter_map(|item| {
                let mut parts = item.split(';');
                let tag = parts.next()?.trim();
                let q = parts
                    .filter_map(|p| p.trim().strip_prefix("q="))
                    .find_map(|q| q.trim().parse::<f32>().ok())
                    .unwrap_or(1.0);
                (!tag.is_empty() && q > 0.0).then_some((q, tag))
            })
            .collect();
        // A stable sort keeps the sender's order among equal q-values.
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        ranked
            .into_iter()
            .find_map(|(_, tag)| Lang::from_tag(tag))
            .unwrap_or(Lang::English)
    }
}

impl TryFrom<String> for Lang {
    type Error = String;
    fn try_from(code: String) -> Result<Self, Self::Error> {
        Lang::from_code(&code).ok_or_else(|| format!("unknown language code {code:?}"))
    }
}

tokio::task_local! {
    static LANG: Lang;
}

/// The language of the request being answered; English outside a request.
pub fn current() -> Lang {
    LANG.try_with(|lang| *lang).unwrap_or_default()
}

/// The request's language when it sent `Accept-Language` (the web app always does: its page's
/// language), else `saved` (an account's language, for a client that names none).
pub fn current_or(headers: &axum::http::HeaderMap, saved: Lang) -> Lang {
    if headers.contains_key(header::ACCEPT_LANGUAGE) {
        current()
    } else {
        saved
    }
}

/// Every text the server seeds, by its message: the demo's (`encore serve --demo`) and a
/// concert's default ticket tier's name.
const SEEDED: [Msg; 7] = [
    Msg::DemoOpeningTitle,
    Msg::DemoOpeningDescription,
    Msg::DemoLateTitle,
    Msg::DemoLateDescription,
    Msg::DemoPassName,
    Msg::DemoPassDescription,
    Msg::DefaultTierName,
];

/// `text` in the reader's language when it is one the server seeded, as seeded (English);
/// anything else, including a seeded text staff have since edited, as it is. For buyers'
/// eyes: a manager's view keeps the stored text, which is what their form saves back.
pub fn seeded_text(text: String) -> String {
    seeded_text_in(current(), text)
}

/// The same for a reader of `lang` outside their request (an e-mail).
pub fn seeded_text_in(lang: Lang, text: String) -> String {
    if lang == Lang::English {
        return text;
    }
    match SEEDED
        .iter()
        .find(|msg| msg.template(Lang::English) == text)
    {
        Some(msg) => msg.template(lang).to_owned(),
        None => text,
    }
}

/// Run `work` answering in `lang` (a page whose language is chosen by its URL, not by the
/// header).
pub async fn scope<F: Future>(lang: Lang, work: F) -> F::Output {
    LANG.scope(lang, work).await
}

/// Middleware: the whole request, its response included, reads the language of its
/// `Accept-Language` header.
pub async fn layer(request: Request, next: Next) -> Response {
    let lang = Lang::from_accept_language(
        request
            .headers()
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    );
    scope(lang, next.run(request)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_primary_tag_picks_the_language() {
        assert_eq!(Lang::from_accept_language(Some("fa-IR")), Lang::Persian);
        assert_eq!(
            Lang::from_accept_language(Some("pt-BR,pt;q=0.9")),
            Lang::Portuguese
        );
        assert_eq!(Lang::from_accept_language(Some("zh-CN")), Lang::Chinese);
        assert_eq!(Lang::from_accept_language(Some("ES")), Lang::Spanish);
        assert_eq!(Lang::from_accept_language(Some("en-US")), Lang::English);
    }

    #[test]
    fn unknown_languages_fall_through_to_the_next_preference_then_english() {
        assert_eq!(
            Lang::from_accept_language(Some("de-DE, es;q=0.5")),
            Lang::Spanish
        );
        assert_eq!(Lang::from_accept_language(Some("de, fr")), Lang::English);
        assert_eq!(Lang::from_accept_language(Some("*")), Lang::English);
        assert_eq!(Lang::from_accept_language(Some("")), Lang::English);
        assert_eq!(Lang::from_accept_language(None), Lang::English);
    }

    #[test]
    fn q_values_outrank_the_order_and_zero_refuses() {
        assert_eq!(
            Lang::from_accept_language(Some("es;q=0.4, zh-CN;q=0.8, fa;q=0.6")),
            Lang::Chinese
        );
        assert_eq!(
            Lang::from_accept_language(Some("fa;q=0, pt")),
            Lang::Portuguese
        );
        assert_eq!(Lang::from_accept_language(Some("es, fa")), Lang::Spanish);
    }

    #[test]
    fn codes_round_trip() {
        for lang in Lang::ALL {
            assert_eq!(Lang::from_code(lang.code()), Some(lang));
        }
        assert_eq!(Lang::from_code("xx"), None);
        assert!(Lang::Persian.rtl() && !Lang::English.rtl());
    }
}
