//! Load test for checkout: N concurrent buyers each buy every concert once — add to
//! cart, check out, pay with the test card — and the rates and latency percentiles are
//! printed. Run by `loadtests/checkout-bench.sh` against a release server.
//!
//! The buyers move in rounds, one concert each per round: all of them fill their carts,
//! then all of them check out and pay. So two rates come out of one run: purchases per
//! second over the whole flow (cart and checkout), and checkout + payment round trips per
//! second over the checkout phases alone (the cart already holding its tier and code).
//!
//! Usage: checkout_load BASE_URL ADMIN_EMAIL ADMIN_PASSWORD [BUYERS] [CONCERTS] [single|tiers]
//!
//! `single` (the default) is the one-price checkout of issue 4: each concert has its
//! default tier only. `tiers` is issue 31's: each concert also sells a "Supporter" and a
//! "VIP" tier (every tier with seats for every buyer, inside the concert's), buyer `i`
//! takes tier `i % 3`, and every purchase enters the project's 10 % promo code in the
//! cart before checking out (the code leaves the cart with the paid order, so each
//! purchase enters it again: one more round trip, as a real buyer makes).

use std::time::{Duration, Instant};

use encore::crypto::{pkce_challenge, random_token};
use serde_json::{Value, json};

const BASIC: &str = "Basic ZW5jb3JlLXdlYjo="; // base64("encore-web:")
const PASSWORD: &str = "a fine long passphrase";

struct Client {
    http: reqwest::Client,
    base: String,
}

impl Client {
    async fn post(&self, path: &str, body: Value, token: Option<&str>) -> anyhow::Result<Value> {
        let request = self.http.post(format!("{}{path}", self.base)).json(&body);
        // The OAuth client's Basic credentials, or the account's bearer token.
        let request = match token {
            Some(token) => request.bearer_auth(token),
            None => request.header("authorization", BASIC),
        };
        let response = request.send().await?;
        let status = response.status();
        let body: Value = response.json().await?;
        anyhow::ensure!(status.is_success(), "{path}: {status} {body}");
        Ok(body["payload"].clone())
    }

    async fn put(&self, path: &str, body: Value, token: &str) -> anyhow::Result<Value> {
        let response = self
            .http
            .put(format!("{}{path}", self.base))
            .json(&body)
            .bearer_auth(token)
            .send()
            .await?;
        let status = response.status();
        let body: Value = response.json().await?;
        anyhow::ensure!(status.is_success(), "{path}: {status} {body}");
        Ok(body["payload"].clone())
    }

    async fn sign_in(&self, email: &str, password: &str) -> anyhow::Result<String> {
        let verifier = random_token(32);
        let redirect = format!("{}/auth/callback", self.base);
        let code = self
            .post(
                "/api/v1/oauth2/authorize",
                json!({ "email": email, "password": password, "response_type": "code",
                        "redirect_uri": redirect, "code_challenge": pkce_challenge(&verifier),
                        "code_challenge_method": "S256", "client_id": "encore-web", "state": "load" }),
                None,
            )
            .await?["code"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let tokens = self
            .post(
                "/api/v1/oauth2/token",
                json!({ "grant_type": "authorization_code", "code": code, "redirect_uri": redirect,
                        "code_verifier": verifier, "client_id": "encore-web" }),
                None,
            )
            .await?;
        Ok(tokens["access_token"]
            .as_str()
            .unwrap_or_default()
            .to_owned())
    }
}

/// What a buyer buys of a concert: its default tier, or a tier with the promo code.
#[derive(Clone)]
struct Offer {
    event: String,
    /// `None` for the default tier (the specification's `POST /cart/{eventId}`).
    tier: Option<String>,
}

/// A purchase's first half: the offer in the cart (→ the promo code).
async fn fill_cart(
    client: &Client,
    token: &str,
    offer: &Offer,
    code: Option<&str>,
) -> anyhow::Result<()> {
    let event = &offer.event;
    let path = match &offer.tier {
        Some(tier) => format!("/api/v1/cart/{event}?tier={tier}"),
        None => format!("/api/v1/cart/{event}"),
    };
    client.post(&path, json!({}), Some(token)).await?;
    if let Some(code) = code {
        client
            .put("/api/v1/cart/promo-code", json!({ "code": code }), token)
            .await?;
    }
    Ok(())
}

/// A purchase's second half: checkout → pay with the test card.
async fn check_out(client: &Client, token: &str) -> anyhow::Result<()> {
    let url = client
        .post("/api/v1/cart/checkout", json!({}), Some(token))
        .await?;
    let url = url.as_str().unwrap_or_default();
    let (path, pay_token) = url.split_once("?token=").unwrap_or_default();
    let pay_token = pay_token.split('&').next().unwrap_or_default();
    let order = path.rsplit('/').next().unwrap_or_default();
    client
        .post(
            &format!("/api/v1/payments/test/{order}"),
            json!({ "token": pay_token, "cardNumber": "4242424242424242", "expiry": "12/40", "cvc": "123" }),
            None,
        )
        .await?;
    Ok(())
}

/// One phase of a round: every buyer's step at once; the buyers whose step failed, and
/// each success's latency.
async fn phase<F, Fut>(buyers: &[String], step: F) -> (Vec<Duration>, Vec<usize>)
where
    F: Fn(usize, String) -> Fut,
    Fut: Future<Output = anyhow::Result<()>> + Send + 'static,
{
    let mut tasks = tokio::task::JoinSet::new();
    for (i, token) in buyers.iter().enumerate() {
        let step = step(i, token.clone());
        tasks.spawn(async move {
            let t = Instant::now();
            (i, step.await.map(|()| t.elapsed()))
        });
    }
    let (mut latencies, mut failed) = (Vec::new(), Vec::new());
    while let Some(done) = tasks.join_next().await {
        match done {
            Ok((_, Ok(latency))) => latencies.push(latency),
            Ok((i, Err(err))) => {
                eprintln!("{err}");
                failed.push(i);
            }
            Err(err) => {
                eprintln!("{err}");
                failed.push(usize::MAX);
            }
        }
    }
    (latencies, failed)
}

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[index]
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    anyhow::ensure!(
        args.len() >= 4,
        "usage: checkout_load BASE ADMIN_EMAIL ADMIN_PASSWORD [BUYERS] [CONCERTS] [single|tiers]"
    );
    let buyers: usize = args.get(4).map_or(Ok(100), |s| s.parse())?;
    let concerts: usize = args.get(5).map_or(Ok(10), |s| s.parse())?;
    let tiered = match args.get(6).map_or("single", String::as_str) {
        "single" => false,
        "tiers" => true,
        other => anyhow::bail!("mode {other}: single or tiers"),
    };
    let client = std::sync::Arc::new(Client {
        http: encore::net::outgoing::client()
            .pool_max_idle_per_host(buyers)
            .timeout(Duration::from_secs(60))
            .build()?,
        base: args[1].trim_end_matches('/').to_owned(),
    });

    // Setup: concerts (admin), then buyers (register + sign in).
    let admin = client.sign_in(&args[2], &args[3]).await?;
    let project = client
        .post(
            "/api/v1/projects",
            json!({ "name": format!("Load {}", random_token(6)) }),
            Some(&admin),
        )
        .await?["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let code = format!("LOAD{}", random_token(6).to_uppercase());
    if tiered {
        client
            .post(
                &format!("/api/v1/projects/{project}/promo-codes"),
                json!({ "code": code, "kind": "percent", "value": 10 }),
                Some(&admin),
            )
            .await?;
    }
    // Each concert's offers: its default tier, and in `tiers` mode two more.
    let mut offers: Vec<Vec<Offer>> = Vec::with_capacity(concerts);
    for i in 0..concerts {
        let event = client
            .post(
                "/api/v1/events",
                json!({ "projectId": project, "title": format!("Load concert {i}"), "artistName": "Load",
                        "startsAt": "2099-01-01T20:00:00Z", "price": 1000, "currency": "EUR",
                        "capacity": buyers }),
                Some(&admin),
            )
            .await?["id"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        client
            .post(
                &format!("/api/v1/events/{event}/publish"),
                json!({}),
                Some(&admin),
            )
            .await?;
        let mut tiers = vec![Offer {
            event: event.clone(),
            tier: None,
        }];
        if tiered {
            for (name, price) in [("Supporter", 2000), ("VIP", 5000)] {
                let tier = client
                    .post(
                        &format!("/api/v1/events/{event}/tiers"),
                        json!({ "name": name, "price": price, "capacity": buyers }),
                        Some(&admin),
                    )
                    .await?["id"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                tiers.push(Offer {
                    event: event.clone(),
                    tier: Some(tier),
                });
            }
        }
        offers.push(tiers);
    }
    let mut tokens = Vec::with_capacity(buyers);
    for _ in 0..buyers {
        let email = format!("buyer-{}@example.com", random_token(8).to_lowercase());
        client
            .post(
                "/api/v1/oauth2/register",
                json!({ "email": email, "password": PASSWORD, "client_id": "encore-web" }),
                None,
            )
            .await?;
        tokens.push(client.sign_in(&email, PASSWORD).await?);
    }

    // The run: every buyer buys every concert, starting at a different one, in rounds of
    // a cart phase and a checkout phase.
    let (mut cart_time, mut checkout_time) = (Duration::ZERO, Duration::ZERO);
    let mut latencies = Vec::new();
    let mut errors = 0;
    for k in 0..concerts {
        let started = Instant::now();
        let (_, failed) = phase(&tokens, |i, token| {
            let (client, code) = (client.clone(), tiered.then(|| code.clone()));
            let tiers = &offers[(i + k) % offers.len()];
            let offer = tiers[i % tiers.len()].clone();
            async move { fill_cart(&client, &token, &offer, code.as_deref()).await }
        })
        .await;
        cart_time += started.elapsed();
        errors += failed.len();
        let started = Instant::now();
        let (done, failed) = phase(&tokens, |_, token| {
            let client = client.clone();
            async move { check_out(&client, &token).await }
        })
        .await;
        checkout_time += started.elapsed();
        errors += failed.len();
        latencies.extend(done);
    }
    latencies.sort();
    let purchases = latencies.len() as f64;
    println!(
        "{} buyers x {} concerts{}: {} purchases = {:.1} purchases/s (cart and checkout, {:.1} s), \
         {:.1} checkout+payment round trips/s (checkout alone, {:.1} s); \
         checkout+payment latency p50 {:.0} ms, p99 {:.0} ms; errors {}",
        buyers,
        concerts,
        if tiered {
            " (3 tiers, a 10 % code)"
        } else {
            ""
        },
        latencies.len(),
        purchases / (cart_time + checkout_time).as_secs_f64(),
        (cart_time + checkout_time).as_secs_f64(),
        purchases / checkout_time.as_secs_f64(),
        checkout_time.as_secs_f64(),
        percentile(&latencies, 0.5).as_secs_f64() * 1000.0,
        percentile(&latencies, 0.99).as_secs_f64() * 1000.0,
        errors
    );
    Ok(())
}
