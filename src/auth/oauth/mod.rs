//! The OAuth2 sign-in endpoints, one file per family: `authorize` (the password step,
//! authorization code + PKCE S256), `token` (code and refresh grants, logout, and the SMS
//! second factor's E108 → `mfa_code` exchange), `second_factor` (authenticators and
//! associate), `recovery` (forgotten passwords) and `registration` (sign-up, e-mail
//! verification and change); `request` holds what they all check (the client, scopes,
//! PKCE). Every answer echoes the client's `state`.

pub mod authorize;
pub mod recovery;
pub mod registration;
mod request;
pub mod second_factor;
pub mod token;

pub(crate) use request::{
    AuthorizationParams, AuthorizationRequest, RawAuthorization, optional_response_type_code,
};

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::authorize::*;
    use super::recovery::*;
    use super::registration::*;
    use super::request::*;
    use super::second_factor::*;
    use super::token::*;
    use crate::auth::rate_limit::Endpoint;
    use crate::error::{Error, Result};

    const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    /// A request as serde reads it from a JSON body.
    fn body<T: serde::de::DeserializeOwned>(fields: Value) -> T {
        serde_json::from_value(fields).expect("a well-typed body")
    }

    /// An authorization request with `changes` applied over a valid one.
    fn authorization(changes: Value) -> Result<AuthorizationRequest> {
        let mut fields = json!({
            "client_id": "web",
            "redirect_uri": "https://example.test/cb",
            "code_challenge": CHALLENGE,
            "code_challenge_method": "S256",
        });
        if let (Some(fields), Value::Object(changes)) = (fields.as_object_mut(), changes) {
            fields.extend(changes);
        }
        AuthorizationRequest::try_from(body::<AuthorizeRequest>(fields).authorization)
    }

    fn grant(fields: Value) -> Result<Grant> {
        Token::try_from(body::<TokenRequest>(fields)).map(|token| token.grant)
    }

    fn is_bad_request(result: Result<impl std::fmt::Debug>) -> bool {
        matches!(result, Err(Error::BadRequest(_)))
    }

    #[test]
    fn an_authorization_request_parses_with_the_default_scope() {
        let req = authorization(json!({})).unwrap();
        assert_eq!(req.code_challenge, CHALLENGE);
        assert_eq!(req.redirect_uri, "https://example.test/cb");
        assert_eq!(req.scope, DEFAULT_SCOPE);
        assert_eq!(req.client_id.as_deref(), Some("web"));
    }

    #[test]
    fn an_authorization_request_without_s256_or_a_well_formed_challenge_is_refused() {
        assert!(is_bad_request(authorization(
            json!({ "code_challenge_method": "plain" })
        )));
        assert!(is_bad_request(authorization(
            json!({ "code_challenge": "abc" })
        )));
        assert!(is_bad_request(authorization(json!({ "redirect_uri": "" }))));
    }

    #[test]
    fn an_unknown_scope_is_refused_and_a_known_one_is_normalised() {
        assert!(is_bad_request(authorization(
            json!({ "scope": "openid admin" })
        )));
        let req = authorization(json!({ "scope": "  openid   offline_access " })).unwrap();
        assert_eq!(req.scope, "openid offline_access");
    }

    #[test]
    fn each_grant_type_parses_into_its_grant() {
        assert_eq!(
            grant(json!({
                "grant_type": "authorization_code",
                "code": "c", "redirect_uri": "r", "code_verifier": "v"
            }))
            .unwrap(),
            Grant::AuthorizationCode {
                code: "c".into(),
                redirect_uri: "r".into(),
                code_verifier: "v".into()
            }
        );
        assert_eq!(
            grant(json!({
                "grant_type": "mfa_code",
                "mfa_token": "m", "binding_code": " 123456 ", "code_verifier": "v"
            }))
            .unwrap(),
            Grant::MfaCode {
                mfa_token: "m".into(),
                binding_code: "123456".into(),
                code_verifier: "v".into()
            }
        );
        assert_eq!(
            grant(json!({ "grant_type": "refresh_token", "refresh_token": "" })).unwrap(),
            Grant::RefreshToken {
                refresh_token: None
            }
        );
    }

    #[test]
    fn a_missing_or_unknown_grant_or_a_missing_field_is_refused() {
        assert!(is_bad_request(grant(json!({}))));
        assert!(is_bad_request(grant(json!({ "grant_type": "password" }))));
        assert!(is_bad_request(grant(
            json!({ "grant_type": "authorization_code" })
        )));
        assert!(is_bad_request(grant(json!({
            "grant_type": "mfa_code", "mfa_token": "m", "binding_code": "1"
        }))));
    }

    #[test]
    fn the_mfa_grant_has_its_own_rate_limit_bucket() {
        let endpoint =
            |grant_type: &str| body::<TokenRequest>(json!({ "grant_type": grant_type })).endpoint();
        assert!(matches!(endpoint("mfa_code"), Endpoint::CodeCheck));
        assert!(matches!(endpoint("authorization_code"), Endpoint::Token));
    }

    #[test]
    fn a_registration_needs_a_valid_email_and_a_policy_password() {
        let register = |email: &str, password: &str| {
            Register::try_from(body::<RegisterRequest>(
                json!({ "email": email, "password": password }),
            ))
        };
        assert!(register("fan@example.test", "a long enough passphrase 42").is_ok());
        assert!(register("not an address", "a long enough passphrase 42").is_err());
        assert!(register("fan@example.test", "x").is_err());
        assert!(is_bad_request(
            register("", "a long enough passphrase 42").map(|_| ())
        ));
    }

    #[test]
    fn an_association_asks_for_sms_and_a_valid_phone() {
        let associate = |fields: Value| Associate::try_from(body::<AssociateRequest>(fields));
        let parsed = associate(json!({
            "authenticator_types": "oob", "oob_channels": ["sms"],
            "phone_number": "+15550100123", "enrolment_token": ""
        }))
        .unwrap();
        assert_eq!(parsed.phone.as_str(), "+15550100123");
        assert_eq!(parsed.enrolment_token, None);
        assert!(is_bad_request(
            associate(json!({ "authenticator_types": "otp", "oob_channels": "sms" })).map(|_| ())
        ));
        assert!(is_bad_request(
            associate(json!({ "authenticator_types": "oob", "oob_channels": "sms" })).map(|_| ())
        ));
    }

    #[test]
    fn a_reset_keeps_its_new_password_raw_until_asked() {
        let reset = Reset::try_from(body::<ResetRequest>(
            json!({ "token": "t", "password": "x" }),
        ))
        .unwrap();
        assert_eq!(reset.token, "t");
        // A password the policy refuses is refused only when asked for, after the link.
        assert!(reset.new_password().is_err());
        assert!(is_bad_request(
            Reset::try_from(body::<ResetRequest>(json!({ "password": "x" }))).map(|_| ())
        ));
    }
}
