//! Time per password hash and verification with the production parameters (argon2id,
//! m = 19 MiB, t = 2, p = 1), through the same bounded blocking pool the server uses.

use criterion::{Criterion, criterion_group, criterion_main};
use encore::accounts::model::Password;
use encore::auth::passwords::Passwords;

fn hashing(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let passwords = Passwords::new();
    let password = Password::parse("a fine long passphrase").expect("policy");
    let stored = runtime.block_on(passwords.hash(&password)).expect("hash");
    let mut group = c.benchmark_group("argon2id m=19456 t=2 p=1");
    group.sample_size(20);
    group.bench_function("hash", |b| {
        b.iter(|| runtime.block_on(passwords.hash(&password)).expect("hash"))
    });
    group.bench_function("verify", |b| {
        b.iter(|| {
            runtime
                .block_on(passwords.verify("a fine long passphrase", Some(&stored)))
                .expect("verify")
        })
    });
    group.finish();
}

criterion_group!(benches, hashing);
criterion_main!(benches);
