//! What an account is sent: e-mails that carry a single-use link (reset, invitation,
//! welcome, phone enrolment, e-mail change), and the permit an SMS code needs.

use super::model::{AccountRow, Email};
use super::store::{self, AccountLink, LinkPurpose};
use crate::error::Result;
use crate::i18n::Msg;
use crate::messaging::OutboundMessage;
use crate::messaging::sms::SmsPermit;
use crate::state::AppState;

/// Everything an SMS code needs, asked before the code is stored: a verified e-mail, the
/// account's own send limit, then the messenger's gate (country allow-list, per-number
/// and server-wide caps). Counted against the account only when the gate lets it through.
pub async fn sms_permit(app: &AppState, account: &AccountRow, phone: &str) -> Result<SmsPermit> {
    account.may_receive_sms()?;
    let key = format!("sms:{}", account.id);
    app.limits.messages_sent.check(&key).await?;
    let permit = app.messenger.sms_permit(phone).await?;
    app.limits.messages_sent.record(&key).await;
    Ok(permit)
}

/// E-mail `to` (the account's address, or the new one it asked for) a message whose body
/// names the account's owner and carries a single-use `link`, in the account's language.
/// The link is the message's secret: redacted in the log and from lower roles' outbox.
fn email_link(
    app: &AppState,
    account: &AccountRow,
    to: &str,
    subject: Msg,
    body: crate::i18n::Text,
    link: String,
) {
    let lang = account.language;
    let body = body
        .with("name", account.display_name())
        .with("link", link.as_str())
        .render(lang);
    app.messenger
        .send(OutboundMessage::email(to, subject.render(lang), body).with_secret(link));
}

/// E-mail the owner a single-use link (30 minutes) that lets the next sign-in enrol a
/// phone. Counts as one of the account's messages.
pub async fn send_enrolment_link(app: &AppState, account: &AccountRow) -> Result<()> {
    app.limits
        .messages_sent
        .take(&format!("mail:{}", account.id))
        .await?;
    let token =
        store::issue_account_link(&app.db, &account.id, AccountLink::EnrolPhone, None).await?;
    let link = format!("{}/auth/login?enrol_token={token}", app.config.public_url);
    email_link(
        app,
        account,
        &account.login,
        Msg::EnrolSubject,
        Msg::EnrolBody.into(),
        link,
    );
    Ok(())
}

/// E-mail a password-reset link (30 minutes) to the account of `email`, if there is an
/// enabled one whose messages are not used up; otherwise nothing, silently.
pub async fn send_reset_link(app: &AppState, email: &Email) -> Result<()> {
    let Some(account) = store::by_login(&app.db, email.as_str()).await? else {
        return Ok(());
    };
    if !account.enabled()
        || app
            .limits
            .messages_sent
            .take(&format!("mail:{}", account.id))
            .await
            .is_err()
    {
        return Ok(());
    }
    let token = store::issue_link(&app.db, &account.id, LinkPurpose::Reset).await?;
    let link = format!(
        "{}/auth/recover-password?token={token}",
        app.config.public_url
    );
    email_link(
        app,
        &account,
        &account.login,
        Msg::ResetSubject,
        Msg::ResetBody.into(),
        link,
    );
    Ok(())
}

/// Send an invitation link (an account created by an admin sets its password here).
pub async fn send_invitation(app: &AppState, account: &AccountRow, inviter: &str) -> Result<()> {
    let token = store::issue_link(&app.db, &account.id, LinkPurpose::Invite).await?;
    let link = format!(
        "{}/auth/recover-password?token={token}&invite=1",
        app.config.public_url
    );
    let body = Msg::InviteBody.with("inviter", inviter);
    email_link(app, account, &account.login, Msg::InviteSubject, body, link);
    Ok(())
}

/// Send the welcome e-mail with a link that proves the address (valid 7 days; a new link
/// replaces the earlier one). Counts as one of the account's messages.
pub async fn send_verification(app: &AppState, account: &AccountRow) -> Result<()> {
    app.limits
        .messages_sent
        .take(&format!("mail:{}", account.id))
        .await?;
    let token = store::issue_link(&app.db, &account.id, LinkPurpose::Verify).await?;
    let link = format!("{}/auth/verify-email?token={token}", app.config.public_url);
    email_link(
        app,
        account,
        &account.login,
        Msg::WelcomeSubject,
        Msg::WelcomeBody.into(),
        link,
    );
    Ok(())
}

/// A new login e-mail waits for its proof: a link (7 days) goes to the new address, and
/// a notice (no link) to the current one. Counts as one of the account's messages.
pub async fn send_email_change(
    app: &AppState,
    account: &AccountRow,
    new_login: &Email,
) -> Result<()> {
    app.limits
        .messages_sent
        .take(&format!("mail:{}", account.id))
        .await?;
    let token = store::issue_account_link(
        &app.db,
        &account.id,
        AccountLink::ChangeEmail,
        Some(new_login.as_str()),
    )
    .await?;
    let link = format!("{}/auth/confirm-email?token={token}", app.config.public_url);
    let body = Msg::EmailChangeBody.with("email", new_login.as_str());
    email_link(
        app,
        account,
        new_login.as_str(),
        Msg::EmailChangeSubject,
        body,
        link,
    );
    app.messenger.send(OutboundMessage::email(
        &account.login,
        Msg::EmailChangeNoticeSubject.render(account.language),
        Msg::EmailChangeNoticeBody
            .with("name", account.display_name())
            .with("email", new_login.as_str())
            .render(account.language),
    ));
    Ok(())
}
