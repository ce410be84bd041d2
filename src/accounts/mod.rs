//! Accounts API (spec section 7): list, get, create with invitation, sign-up, update,
//! delete, second-factor switch, re-invite, current user — plus password, phone and
//! avatar changes for the dashboard's preferences and users pages.

pub mod changes;
pub mod messages;
pub mod model;
pub mod policy;
pub mod signup;
pub mod store;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Multipart, State};
use axum::http::header;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use self::changes::{Change, UpdateRequest, first_role, may_turn_on_mfa};
use self::model::{
    Account, AccountRow, Email, Password, Person, PhoneNumber, Role, parse_time_zone,
};
use self::policy::Target;
use crate::auth::extract::{ClientIp, CurrentUser, IdRequest, Staff};
use crate::auth::step_up::StepUp;
use crate::crypto::random_digits;
use crate::db::{iso8601, now_ms};
use crate::envelope::{Api, Envelope, JsonBody, QueryParams, file_field};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::notifications::{self, NewNotification, Texts};
use crate::openapi::{Failure, Nothing};
use crate::paging::{Page, Paging};
use crate::state::AppState;

const AVATAR_MAX_BYTES: usize = 2 * 1024 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    // The picture's route alone takes a body this large.
    let avatar = OpenApiRouter::new()
        .routes(routes!(avatar, upload_avatar))
        .layer(DefaultBodyLimit::max(AVATAR_MAX_BYTES + 64 * 1024));
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(signup))
        .routes(routes!(me))
        .routes(routes!(resend_verification))
        .routes(routes!(stats))
        .routes(routes!(show, update, remove))
        .routes(routes!(change_mfa))
        .routes(routes!(reinvite))
        .routes(routes!(change_password))
        .routes(routes!(start_phone_change, remove_phone))
        .routes(routes!(verify_phone_change))
        .merge(avatar)
}

/// The `{id}` of every `accounts/{id}…` path.
const ID: &str = "The account's id";

async fn load(app: &AppState, id: &str) -> Result<AccountRow> {
    store::by_id(&app.db, id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::AccountNotFound))
}

// --------------------------------------------------------------------------------- read

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ListQuery {
    /// Part of the login e-mail or the name.
    search: Option<String>,
    /// Only enabled (`true`) or only disabled (`false`) accounts.
    active: Option<bool>,
    /// Only accounts with this role.
    #[param(value_type = Option<Role>)]
    role: Option<String>,
}

/// A page of accounts for staff (admin, sa), filtered by text, enablement and role.
#[utoipa::path(get, path = "/accounts", tag = "accounts", security(("bearer" = [])),
    params(Paging, ListQuery),
    responses(
        (status = 200, description = "A page of accounts.", body = Envelope<Page<Account>>),
        (status = 422, description = "An unknown role.", body = Failure)))]
#[tracing::instrument(skip_all)]
async fn list(
    State(app): State<AppState>,
    Staff(user): Staff,
    paging: Paging,
    QueryParams(q): QueryParams<ListQuery>,
) -> Result<Api<Page<Account>>> {
    policy::can_list(user.actor())?;
    let filter = store::ListFilter {
        search: q.search,
        active: q.active,
        role: q.role.as_deref().map(Role::parse).transpose()?,
        page: paging.page,
        page_size: paging.page_size,
    };
    let (rows, total) = store::list(&app.db, &filter).await?;
    let items = rows.iter().map(Account::from).collect();
    Ok(Api::ok(Page::new(items, total, paging)))
}

/// One account: the account itself, or any account for staff (as the roles policy allows).
#[utoipa::path(get, path = "/accounts/{id}", tag = "accounts", security(("bearer" = [])),
    params(("id" = String, Path, description = ID)),
    responses((status = 200, description = "The account.", body = Envelope<Account>)))]
async fn show(IdRequest { app, user, id }: IdRequest) -> Result<Api<Account>> {
    let row = load(&app, &id).await?;
    policy::can_view(user.actor(), Target::of(&row))?;
    Ok(Api::ok(with_pending_login(&app, &row).await?))
}

/// The account as shown, with the login e-mail it waits to confirm, if any.
async fn with_pending_login(app: &AppState, row: &AccountRow) -> Result<Account> {
    let mut account = Account::from(row);
    account.pending_login = store::pending_login(&app.db, &row.id).await?;
    Ok(account)
}

/// The signed-in account, with its artist projects: a list whose first (only) item is
/// the caller (the spec's shape).
#[utoipa::path(get, path = "/accounts/userinfo/me", tag = "accounts", security(("bearer" = [])),
    responses((status = 200, description = "The caller's account.", body = Envelope<Vec<Account>>)))]
async fn me(user: CurrentUser) -> Api<Vec<Account>> {
    // From the cached session alone, no query: every dashboard page asks this first.
    let mut account = Account::from(&user.account);
    account.pending_login = user.pending_login;
    account.projects = Some(user.projects);
    Api::ok(vec![account])
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct RoleCounts {
    user: i64,
    admin: i64,
    sa: i64,
}

#[derive(Debug, Serialize, ToSchema)]
struct DayCount {
    #[schema(format = Date)]
    date: String,
    count: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Stats {
    by_role: RoleCounts,
    enabled: i64,
    disabled: i64,
    with_mfa: i64,
    /// Sign-ups per day over the last 30 days, oldest first.
    signups: Vec<DayCount>,
}

const DAY_MS: i64 = 86_400_000;
const STATS_DAYS: i64 = 30;

/// Account figures for staff (admin, sa): by role, enablement, second factor, and
/// sign-ups per day.
#[utoipa::path(get, path = "/accounts/stats", tag = "accounts", security(("bearer" = [])),
    responses((status = 200, description = "The figures.", body = Envelope<Stats>)))]
async fn stats(State(app): State<AppState>, Staff(_): Staff) -> Result<Api<Stats>> {
    let today = now_ms() / DAY_MS;
    let first_day = today - (STATS_DAYS - 1);
    let figures = store::figures(&app.db, first_day * DAY_MS).await?;
    let mut per_day = vec![0i64; STATS_DAYS as usize];
    for created in figures.created_since {
        let index = created / DAY_MS - first_day;
        if let Some(slot) = usize::try_from(index).ok().and_then(|i| per_day.get_mut(i)) {
            *slot += 1;
        }
    }
    let count_of = |role: Role| {
        figures
            .by_role
            .iter()
            .find(|(r, _)| *r == role)
            .map_or(0, |(_, n)| *n)
    };
    Ok(Api::ok(Stats {
        by_role: RoleCounts {
            user: count_of(Role::User),
            admin: count_of(Role::Admin),
            sa: count_of(Role::Sa),
        },
        enabled: figures.enabled,
        disabled: figures.disabled,
        with_mfa: figures.with_mfa,
        signups: per_day
            .into_iter()
            .enumerate()
            .map(|(i, count)| DayCount {
                date: iso8601((first_day + i as i64) * DAY_MS)[..10].to_owned(),
                count,
            })
            .collect(),
    }))
}

// ------------------------------------------------------------------------------- create

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct CreateRequest {
    /// The new account's e-mail address (`email` is read too).
    #[serde(alias = "email")]
    #[schema(format = Email)]
    login: String,
    #[serde(default)]
    person: Person,
    /// The first is the role (default `user`).
    #[serde(default)]
    #[schema(value_type = Vec<Role>)]
    roles: Vec<String>,
    #[serde(default)]
    notes: String,
}

/// Create an account and e-mail its invitation: staff, each up to the roles the policy
/// lets them give.
#[utoipa::path(post, path = "/accounts", tag = "accounts", security(("bearer" = [])),
    request_body = CreateRequest,
    responses(
        (status = 201, description = "The new account.", body = Envelope<Account>),
        (status = 409, description = "An account with this e-mail exists.", body = Failure)))]
#[tracing::instrument(skip_all)]
async fn create(
    State(app): State<AppState>,
    Staff(user): Staff,
    JsonBody(req): JsonBody<CreateRequest>,
) -> Result<Api<Account>> {
    let role = first_role(&req.roles)?;
    policy::can_create(user.actor(), role)?;
    let email = Email::parse(&req.login)?;
    let row = store::insert(
        &app.db,
        store::NewAccount {
            login: email.as_str(),
            first_name: &req.person.first_name,
            last_name: &req.person.last_name,
            role,
            password_hash: None,
            phone: None,
            use_mfa: false,
            notes: &req.notes,
            tenant_key: &app.config.tenant_key,
            // The invitation goes out in the inviter's language; accepting it keeps the
            // invitee's own.
            language: crate::i18n::current(),
            // The invitee's browser reports it once they sign in.
            time_zone: None,
            // Accepting the invitation (a link sent to the address) proves it.
            email_verified: false,
        },
    )
    .await?;
    let inviter = user.account.display_name();
    messages::send_invitation(&app, &row, &inviter).await?;
    notifications::notify(
        &app,
        &row.id,
        &NewNotification::message(
            &inviter,
            Texts::new(
                Msg::NoticeWelcomeTitle,
                Msg::NoticeWelcomeBody.with("inviter", inviter.as_str()),
            ),
            row.language,
            &row.zone(),
        ),
    )
    .await?;
    Ok(Api::created(Account::from(&row)))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct SignupRequest {
    /// The e-mail address (`email` is read too).
    #[serde(alias = "email")]
    #[schema(format = Email)]
    login: String,
    /// 8–128 characters, not among the 10,000 most common.
    #[schema(min_length = 8, max_length = 128)]
    password: String,
    #[serde(default)]
    person: Person,
    /// The browser's IANA time zone (`Asia/Tehran`): notices write times in it.
    #[schema(example = "Asia/Tehran")]
    time_zone: Option<String>,
}

/// Sign up as a fan, for anyone: the account is created and a verification link
/// e-mailed; it does not sign in.
#[utoipa::path(post, path = "/accounts/signup", tag = "accounts",
    request_body = SignupRequest,
    responses(
        (status = 201, description = "The new account.", body = Envelope<Account>),
        (status = 409, description = "An account with this e-mail exists.", body = Failure)))]
#[tracing::instrument(skip_all)]
async fn signup(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    JsonBody(req): JsonBody<SignupRequest>,
) -> Result<Api<Account>> {
    app.limits
        .check_ip(ip, crate::auth::rate_limit::Endpoint::Register)
        .await?;
    let email = Email::parse(&req.login)?;
    let password = Password::parse(&req.password)?;
    let zone = req.time_zone.as_deref().map(parse_time_zone).transpose()?;
    let account = signup::sign_up(
        &app,
        &email,
        &password,
        &req.person.first_name,
        &req.person.last_name,
        zone.as_ref(),
    )
    .await?;
    Ok(Api::created(account))
}

/// Send the signed-in account's verification link again (a new link replaces the old
/// one).
#[utoipa::path(post, path = "/accounts/me/verification", tag = "accounts", security(("bearer" = [])),
    responses(
        (status = 200, description = "The link was sent.", body = Envelope<Nothing>),
        (status = 409, description = "The address is already verified.", body = Failure)))]
#[tracing::instrument(skip_all)]
async fn resend_verification(State(app): State<AppState>, user: CurrentUser) -> Result<Api<()>> {
    if user.account.email_verified() {
        return Err(Error::conflict(Msg::EmailAlreadyVerified));
    }
    messages::send_verification(&app, &user.account).await?;
    Ok(Api::ok(()))
}

// ------------------------------------------------------------------------------- update

/// Change an account: its owner their profile, language, time zone and second factor; staff as the
/// roles policy allows (role, enablement, notes). A new login e-mail or second-factor
/// switch takes the actor's current password.
#[utoipa::path(put, path = "/accounts/{id}", tag = "accounts", security(("bearer" = [])),
    params(("id" = String, Path, description = ID)), request_body = UpdateRequest,
    responses(
        (status = 200, description = "The account as changed.", body = Envelope<Account>),
        (status = 409, description = "The new login e-mail is another account's.", body = Failure)))]
#[tracing::instrument(skip_all)]
async fn update(
    IdRequest { app, user, id }: IdRequest,
    step_up: StepUp,
    JsonBody(req): JsonBody<UpdateRequest>,
) -> Result<Api<Account>> {
    let before = load(&app, &id).await?;
    policy::can_view(user.actor(), Target::of(&before))?;
    let change = Change::read(user.actor(), &before, &req)?;
    if change.needs_password() {
        step_up
            .require_password(&app, &user, req.current_password.as_deref())
            .await?;
    }
    changes::save(&app, &before, change).await?;
    Ok(Api::ok(
        with_pending_login(&app, &load(&app, &id).await?).await?,
    ))
}

/// Enrolling or changing the phone of an account with the second factor on takes a
/// session that passed it (a password alone is not enough).
fn require_second_factor_session(user: &CurrentUser) -> Result<()> {
    if user.account.use_mfa() && !user.passed_second_factor {
        return Err(Error::forbidden(Msg::SecondFactorSessionRequired));
    }
    Ok(())
}

/// A body with only the step-up password (DELETE accounts/{id}/phone; the body may be
/// left out, which reads as no password).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct StepUpRequest {
    /// The actor's current password (step-up).
    #[schema(value_type = String, required = true, min_length = 1)]
    current_password: Option<String>,
}

fn step_up_body(bytes: &[u8]) -> Result<StepUpRequest> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(StepUpRequest::default());
    }
    serde_json::from_slice(bytes)
        .map_err(|e| Error::unprocessable(Msg::InvalidBody.with("detail", e.to_string())))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct MfaRequest {
    #[serde(rename = "useMFA")]
    use_mfa: bool,
    current_password: Option<String>,
}

/// Turn the SMS second factor on or off: the owner, or staff as the roles policy allows;
/// on needs a phone, and either way the actor's current password.
#[utoipa::path(post, path = "/accounts/{id}/changemfa", tag = "accounts", security(("bearer" = [])),
    params(("id" = String, Path, description = ID)), request_body = MfaRequest,
    responses((status = 200, description = "The account.", body = Envelope<Account>)))]
async fn change_mfa(
    IdRequest { app, user, id }: IdRequest,
    step_up: StepUp,
    JsonBody(req): JsonBody<MfaRequest>,
) -> Result<Api<Account>> {
    let mut row = load(&app, &id).await?;
    policy::can_edit_profile(user.actor(), Target::of(&row))?;
    if req.use_mfa == row.use_mfa() {
        return Ok(Api::ok(Account::from(&row)));
    }
    may_turn_on_mfa(req.use_mfa, &row)?;
    step_up
        .require_password(&app, &user, req.current_password.as_deref())
        .await?;
    row.use_mfa = i64::from(req.use_mfa);
    app.publish(store::save_profile(&app.db, &row).await?);
    Ok(Api::ok(Account::from(&row)))
}

/// Delete an account, its tickets and picture: staff, as the roles policy allows.
#[utoipa::path(delete, path = "/accounts/{id}", tag = "accounts", security(("bearer" = [])),
    params(("id" = String, Path, description = ID)),
    responses((status = 200, description = "Deleted.", body = Envelope<Nothing>)))]
async fn remove(IdRequest { app, user, id }: IdRequest) -> Result<Api<()>> {
    let row = load(&app, &id).await?;
    policy::can_delete(user.actor(), Target::of(&row))?;
    // Its tickets go with it: whoever holds its playlist URLs stops hearing anything.
    crate::stream::access::sessions::end_for_account(&app, &id).await?;
    app.publish(store::delete(&app.db, &id).await?);
    let _ = tokio::fs::remove_file(avatar_path(&app, &id)).await;
    Ok(Api::ok(()))
}

/// E-mail an account's invitation again: staff, as the roles policy allows.
#[utoipa::path(post, path = "/accounts/{id}/reinvite", tag = "accounts", security(("bearer" = [])),
    params(("id" = String, Path, description = ID)),
    responses((status = 200, description = "The invitation was sent.", body = Envelope<Nothing>)))]
async fn reinvite(IdRequest { app, user, id }: IdRequest) -> Result<Api<()>> {
    let row = load(&app, &id).await?;
    policy::can_reinvite(user.actor(), Target::of(&row))?;
    messages::send_invitation(&app, &row, &user.account.display_name()).await?;
    Ok(Api::ok(()))
}

// ---------------------------------------------------------------- password and phone

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct PasswordRequest {
    current_password: String,
    /// 8–128 characters, not among the 10,000 most common.
    #[schema(min_length = 8, max_length = 128)]
    new_password: String,
}

/// Change one's own password (the current one is asked); every other session ends.
#[utoipa::path(post, path = "/accounts/{id}/password", tag = "accounts", security(("bearer" = [])),
    params(("id" = String, Path, description = ID)), request_body = PasswordRequest,
    responses((status = 200, description = "Changed.", body = Envelope<Nothing>)))]
async fn change_password(
    IdRequest { app, user, id }: IdRequest,
    step_up: StepUp,
    JsonBody(req): JsonBody<PasswordRequest>,
) -> Result<Api<()>> {
    policy::is_owner(user.actor(), Target::of(&user.account).with_id(&id))?;
    let new_password = Password::parse(&req.new_password)?;
    step_up
        .check_password(&app, &user, &req.current_password)
        .await?;
    let hash = app.passwords.hash(&new_password).await?;
    app.publish(store::set_password_hash(&app.db, &id, &hash).await?);
    app.publish(
        store::end_sessions(&app.db, &id, Some(&user.session_id), "password changed").await?,
    );
    Ok(Api::ok(()))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct PhoneRequest {
    /// E.164, e.g. `+447700900123` (spaces, dashes, dots and brackets are ignored).
    #[schema(pattern = r"^[ ().-]*\+[ ().-]*[1-9]([ ().-]*[0-9]){7,14}[ ().-]*$")]
    phone: String,
    /// The actor's current password (step-up).
    #[schema(value_type = String, required = true, min_length = 1)]
    current_password: Option<String>,
}

/// Start enrolling or changing one's own second-factor phone: a code goes to it by SMS
/// (the current password is asked; with the second factor on, a session that passed it).
#[utoipa::path(post, path = "/accounts/{id}/phone", tag = "accounts", security(("bearer" = [])),
    params(("id" = String, Path, description = ID)), request_body = PhoneRequest,
    responses((status = 200, description = "The code was sent.", body = Envelope<Nothing>)))]
async fn start_phone_change(
    IdRequest { app, user, id }: IdRequest,
    step_up: StepUp,
    JsonBody(req): JsonBody<PhoneRequest>,
) -> Result<Api<()>> {
    policy::is_owner(user.actor(), Target::of(&user.account).with_id(&id))?;
    let phone = PhoneNumber::parse(&req.phone)?;
    require_second_factor_session(&user)?;
    step_up
        .require_password(&app, &user, req.current_password.as_deref())
        .await?;
    // Asked before the code is stored: a refused SMS leaves nothing behind.
    let permit = messages::sms_permit(&app, &user.account, phone.as_str()).await?;
    let code = random_digits(6);
    store::replace_phone_verification(&app.db, &id, phone.as_str(), &store::otp_hash(&id, &code))
        .await?;
    let body = Msg::SmsPhoneCode
        .with("code", code.as_str())
        .render(user.account.language);
    app.messenger.send_sms(permit, body, code);
    Ok(Api::ok(()))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct CodeRequest {
    /// The 6-digit code sent by SMS.
    code: String,
    /// The actor's current password (step-up).
    #[schema(value_type = String, required = true, min_length = 1)]
    current_password: Option<String>,
}

/// Finish a phone change with the code sent by SMS: the owner only.
#[utoipa::path(post, path = "/accounts/{id}/phone/verify", tag = "accounts", security(("bearer" = [])),
    params(("id" = String, Path, description = ID)), request_body = CodeRequest,
    responses((status = 200, description = "The account with its new phone.", body = Envelope<Account>)))]
async fn verify_phone_change(
    IdRequest { app, user, id }: IdRequest,
    step_up: StepUp,
    JsonBody(req): JsonBody<CodeRequest>,
) -> Result<Api<Account>> {
    policy::is_owner(user.actor(), Target::of(&user.account).with_id(&id))?;
    require_second_factor_session(&user)?;
    step_up
        .require_password(&app, &user, req.current_password.as_deref())
        .await?;
    let given = store::otp_hash(&id, req.code.trim());
    match store::verify_phone_change(&app.db, &id, |expected| {
        crate::crypto::constant_time_eq(&given, expected)
    })
    .await?
    {
        store::PhoneCheck::Expired => return Err(Error::bad_request(Msg::PhoneCodeExpired)),
        store::PhoneCheck::Incorrect => return Err(Error::bad_request(Msg::CodeIncorrect)),
        store::PhoneCheck::Verified(changed) => app.publish(changed),
    }
    Ok(Api::ok(Account::from(&load(&app, &id).await?)))
}

/// Remove an account's phone: the owner, or staff as the roles policy allows, with the
/// actor's current password.
#[utoipa::path(delete, path = "/accounts/{id}/phone", tag = "accounts", security(("bearer" = [])),
    params(("id" = String, Path, description = ID)), request_body = StepUpRequest,
    responses((status = 200, description = "The account without a phone.", body = Envelope<Account>)))]
async fn remove_phone(
    IdRequest { app, user, id }: IdRequest,
    step_up: StepUp,
    body: axum::body::Bytes,
) -> Result<Api<Account>> {
    let row = load(&app, &id).await?;
    policy::can_remove_phone(user.actor(), Target::of(&row))?;
    let req = step_up_body(&body)?;
    step_up
        .require_password(&app, &user, req.current_password.as_deref())
        .await?;
    app.publish(store::set_phone(&app.db, &id, None).await?);
    Ok(Api::ok(Account::from(&load(&app, &id).await?)))
}

// ------------------------------------------------------------------------------- avatar

fn avatar_path(app: &AppState, id: &str) -> std::path::PathBuf {
    // Ids are UUIDs we generate; keep only safe characters all the same.
    let safe: String = id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    app.config.data_dir.join("avatars").join(safe)
}

/// The multipart form of an avatar upload.
#[derive(ToSchema)]
#[allow(dead_code)] // a description only: the handler reads the field with `file_field`
struct AvatarUpload {
    /// A PNG, JPEG or WebP picture, at most 2 MiB and 4096×4096 pixels; re-encoded.
    #[schema(format = Binary, value_type = String)]
    file: Vec<u8>,
}

/// Set an account's picture: its owner, or staff as the roles policy allows.
#[utoipa::path(post, path = "/accounts/{id}/avatar", tag = "accounts", security(("bearer" = [])),
    params(("id" = String, Path, description = ID)),
    request_body(content = inline(AvatarUpload), content_type = "multipart/form-data"),
    responses((status = 200, description = "The account with its new picture.", body = Envelope<Account>)))]
#[tracing::instrument(skip_all)]
async fn upload_avatar(
    IdRequest { app, user, id }: IdRequest,
    mut multipart: Multipart,
) -> Result<Api<Account>> {
    let row = load(&app, &id).await?;
    policy::can_edit_profile(user.actor(), Target::of(&row))?;
    let bytes = file_field(
        &mut multipart,
        AVATAR_MAX_BYTES,
        Msg::ImageTooLarge.with("size", 2u32),
    )
    .await?;
    // Judged by its content, never by its name or declared type, and re-encoded: only
    // the new file is kept (no EXIF, nothing appended).
    let (avatar, ()) = crate::images::reencode(bytes, |_| Ok(())).await?;
    let media_type = avatar.media_type;
    let path = avatar_path(&app, &id);
    if let Some(dir) = path.parent() {
        tokio::fs::create_dir_all(dir)
            .await
            .map_err(Error::internal)?;
    }
    let partial = path.with_extension("partial");
    tokio::fs::write(&partial, &avatar.bytes)
        .await
        .map_err(Error::internal)?;
    tokio::fs::rename(&partial, &path)
        .await
        .map_err(Error::internal)?;
    app.publish(store::set_avatar(&app.db, &id, media_type).await?);
    // Written for the account's owner, who may not be the one who changed it.
    let body = if user.account.id == id {
        Msg::NoticeAvatarOwnBody.into()
    } else {
        Msg::NoticeAvatarBody.with("name", user.account.display_name())
    };
    let texts = Texts::new(Msg::NoticeAvatarTitle, body);
    notifications::notify(
        &app,
        &id,
        &NewNotification::upload("avatar", texts, row.language, &row.zone()),
    )
    .await?;
    Ok(Api::ok(Account::from(&load(&app, &id).await?)))
}

/// An account's picture, for anyone signed in.
#[utoipa::path(get, path = "/accounts/{id}/avatar", tag = "accounts", security(("bearer" = [])),
    params(("id" = String, Path, description = ID)),
    responses((status = 200, description = "The picture (not in the envelope).",
        content(("image/png"), ("image/jpeg"), ("image/webp")))))]
async fn avatar(IdRequest { app, id, .. }: IdRequest) -> Result<Response> {
    let row = load(&app, &id).await?;
    let media_type = row
        .avatar_type
        .ok_or_else(|| Error::not_found(Msg::NoPicture))?;
    let bytes = tokio::fs::read(avatar_path(&app, &id))
        .await
        .map_err(|_| Error::not_found(Msg::NoPicture))?;
    Response::builder()
        .header(header::CONTENT_TYPE, media_type)
        .header(header::CACHE_CONTROL, "private, max-age=86400")
        .header("x-content-type-options", "nosniff")
        .body(Body::from(bytes))
        .map_err(Error::internal)
}

impl<'a> Target<'a> {
    /// The same role with the id from the path: owner checks compare ids.
    fn with_id(self, id: &'a str) -> Self {
        Target {
            id,
            role: self.role,
        }
    }
}
