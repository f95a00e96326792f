//! The impact report on many quotes ("10,000 quotes on PostgreSQL in under a minute").
//! Starts pawpath in-process on a fresh database, makes `PAWPATH_BENCH_QUOTES` (default 10,000)
//! quotes through the API as customers would (a pet of a random species, breed, age and sex, an
//! owner in one of thirty postcode areas, on a random brand selling the direct journey, a cover
//! chosen), then copies the definitions and makes a real-looking change to the copy: dogs 7 years
//! and over cost 8% more (their two oldest age factors times 1.08). Then it runs the release
//! binary's `pawpath impact --from served --to <copy> --sample N` against the same database,
//! times it, and prints the report.
//!
//! Run: `PAWPATH_BENCH_POSTGRES=postgres://postgres@127.0.0.1:5432/postgres cargo bench -p
//! pawpath-server --bench impact` (without it, SQLite in a temporary folder).

use serde_json::{Value, json};

/// A small, seeded generator (xorshift): the same quotes every run.
struct Dice(u64);

impl Dice {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.next(items.len())]
    }
}

const POSTCODES: [&str; 30] = [
    "SW1A 1AA", "M1 1AE", "B33 8TH", "LS1 4DY", "EH1 1YZ", "CF10 1EP", "BS1 4DJ", "G1 1XQ",
    "NE1 7RU", "L1 8JQ", "BT1 5GS", "CB2 1TN", "OX1 2JD", "NR1 3JU", "EX1 1HS", "PL1 2AA",
    "BN1 1AA", "CR0 1NX", "E1 6AN", "N1 9GU", "AB10 1XG", "IV1 1HY", "DD1 1DB", "S1 2HE",
    "NG1 5FS", "LE1 5WW", "CV1 2GT", "PO1 2HJ", "SO14 7DU", "TR1 2HE",
];

/// Breeds of each species, of several groups and sizes.
const DOGS: [&str; 8] = [
    "D173", "D001", "D002", "D003", "D004", "D005", "D006", "D012",
];
const CATS: [&str; 3] = ["C286", "C201", "C203"];
const RABBITS: [&str; 2] = ["R338", "R301"];
const LIMITS: [&str; 6] = ["01000", "02000", "04000", "06000", "08000", "10000"];

fn pet(dice: &mut Dice, today: chrono::NaiveDate) -> (Value, &'static str) {
    let species = match dice.next(100) {
        0..=59 => "dog",
        60..=94 => "cat",
        _ => "rabbit",
    };
    let breed = match species {
        "dog" => *dice.pick(&DOGS),
        "cat" => *dice.pick(&CATS),
        _ => *dice.pick(&RABBITS),
    };
    let days = 120 + dice.next(365 * 11);
    let born = today - chrono::Duration::days(days as i64);
    let mut pet = json!({
        "pet_name": "Biscuit", "pet_type": species, "pet_breed": breed,
        "pet_date_of_birth": born.to_string(), "pet_sex": *dice.pick(&["f", "m"]),
        "pet_neutered": *dice.pick(&["yes", "no"]), "pet_any_injury_illness": "no",
        "pet_cost": *dice.pick(&["0", "150", "450.00", "900", "1800"]), "confirm_assumptions": true,
    });
    match species {
        "dog" => pet["dog_breed_type"] = "breed".into(),
        "cat" => pet["cat_breed_type"] = breed.into(),
        _ => pet["rabbit_breed_type"] = breed.into(),
    }
    (pet, species)
}

async fn one_quote(
    client: &reqwest::Client,
    base: &str,
    brand: &str,
    dice: &mut Dice,
    today: chrono::NaiveDate,
) -> usize {
    let r = client
        .get(format!("{base}/quote?brand={brand}"))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get");
    let cookie = r
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .unwrap_or("")
        .to_owned();
    let page: Value = r.json().await.expect("json");
    let csrf = page["data"]["csrf"].clone();
    let (pet, species) = pet(dice, today);
    let group = if species == "rabbit" {
        "LT"
    } else {
        *dice.pick(&["LT", "LT", "MB", "TL"])
    };
    let limit = if species == "rabbit" {
        *dice.pick(&["01000", "02000", "03000", "04000"])
    } else {
        *dice.pick(&LIMITS)
    };
    let owner = json!({
        "customer_title": "Ms", "customer_first_name": "Ada", "customer_last_name": "Lovelace",
        "customer_date_of_birth": "1985-03-27", "email_address": "ada@example.com",
        "customer_contact_number": "01632960123", "houseNumberName": "12",
        "customer_address_line_1": "12 High Street", "customer_town": "Town",
        "customer_postcode": *dice.pick(&POSTCODES),
        "marketing_preferences": {"optin_email": false, "optin_post": false, "optin_sms": false, "optin_phone": false},
    });
    let calls = [
        ("/api/petdetails", json!({ "csrf": csrf, "pets": [pet] })),
        ("/api/ownerdetail", json!({ "csrf": csrf, "owner": owner })),
        (
            "/api/saveCover",
            json!({ "csrf": csrf, "pets": [{ "product": { "Code": format!("{group}{limit}") } }] }),
        ),
    ];
    let mut sent = 0;
    for (call, body) in calls {
        let r = client
            .post(format!("{base}{call}"))
            .header("Cookie", &cookie)
            .json(&body)
            .send()
            .await
            .expect("post");
        sent += 1;
        let ok = r.status().is_success();
        let _ = r.bytes().await;
        if !ok {
            break;
        }
    }
    sent
}

mod harness;

fn main() {
    harness::block_on(2, run());
}

async fn run() {
    let quotes = harness::number("PAWPATH_BENCH_QUOTES", 10_000) as usize;
    let root = harness::root();
    let data = harness::DataFolder::new("impact");

    sqlx::any::install_default_drivers();
    let pg = std::env::var("PAWPATH_BENCH_POSTGRES").ok();
    let database = match &pg {
        None => format!("sqlite://{}?mode=rwc", data.0.join("bench.db").display()),
        Some(url) => {
            let db = format!("pawpath_impact_{}", std::process::id());
            let admin = sqlx::AnyPool::connect(url).await.expect("postgres");
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {db}")))
                .execute(&admin)
                .await
                .expect("create the bench database");
            admin.close().await;
            let base = url.rsplit_once('/').map_or(url.as_str(), |(b, _)| b);
            format!("{base}/{db}")
        }
    };
    let served = harness::Served::start(&data, &database, &[]).await;
    let brands: Vec<String> = {
        let defs = &served.state.defs;
        let direct = defs.journey("direct").expect("the direct journey");
        defs.raw
            .brands
            .iter()
            .filter(|b| b.value.offers_journey(direct))
            .map(|b| b.value.id.clone())
            .collect()
    };
    let base = &served.base;
    let today = chrono::Utc::now().date_naive();

    // The quotes, made by 16 customers at a time.
    let started = std::time::Instant::now();
    let client = reqwest::Client::new();
    let workers = 16;
    let mut tasks = Vec::new();
    for w in 0..workers {
        let (client, base, brands) = (client.clone(), base.clone(), brands.clone());
        let share = quotes / workers + usize::from(w < quotes % workers);
        tasks.push(tokio::spawn(async move {
            let mut dice = Dice(0x9E37_79B9_7F4A_7C15 ^ (w as u64 + 1));
            let mut calls = 0;
            for _ in 0..share {
                let brand = dice.pick(&brands).clone();
                calls += one_quote(&client, &base, &brand, &mut dice, today).await;
            }
            calls
        }));
    }
    let mut calls = 0;
    for t in tasks {
        calls += t.await.expect("worker");
    }
    println!(
        "made {quotes} quotes ({calls} saves) in {:.1} s on {}",
        started.elapsed().as_secs_f64(),
        if pg.is_some() { "PostgreSQL" } else { "SQLite" }
    );

    // The change: dogs 7 years and over, 8% dearer.
    let copy = data.0.join("definitions");
    copy_tree(&root, &copy);
    let rates_path = copy.join("journeys/products/rates.json");
    let mut rates: Value =
        serde_json::from_str(&std::fs::read_to_string(&rates_path).expect("rates")).expect("JSON");
    for band in rates["age_bands"]["dog"]
        .as_array_mut()
        .expect("dog age bands")
    {
        if band["below_years"].as_u64().is_some_and(|b| b > 7) {
            let factor: rust_decimal::Decimal = band["factor"]
                .as_str()
                .expect("factor")
                .parse()
                .expect("decimal");
            band["factor"] = (factor * rust_decimal::Decimal::new(108, 2))
                .round_dp(3)
                .normalize()
                .to_string()
                .into();
        }
    }
    std::fs::write(
        &rates_path,
        serde_json::to_string_pretty(&rates).expect("json"),
    )
    .expect("write");

    let started = std::time::Instant::now();
    let done = std::process::Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .args(["impact", "--from", "served", "--to"])
        .arg(&copy)
        .args(["--sample", &quotes.to_string(), "--flows"])
        .arg(root.join("tests/flows"))
        .env("PAWPATH_DEFINITIONS", &root)
        .env("PAWPATH_DATA_DIR", &data.0)
        .env("DATABASE_URL", &database)
        .env("RUST_LOG", "warn")
        .output()
        .expect("run pawpath impact");
    let seconds = started.elapsed().as_secs_f64();
    println!("{}", String::from_utf8_lossy(&done.stdout));
    eprintln!("{}", String::from_utf8_lossy(&done.stderr));
    println!(
        "pawpath impact on {quotes} quotes: {seconds:.1} s, wall clock, the process's start and end included (exit {:?})",
        done.status.code()
    );

    if let Some(url) = &pg {
        let db = database
            .rsplit_once('/')
            .map(|(_, d)| d.to_owned())
            .unwrap_or_default();
        if let Ok(admin) = sqlx::AnyPool::connect(url).await {
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE IF EXISTS {db} WITH (FORCE)"
            )))
            .execute(&admin)
            .await;
        }
    }
}

/// The definitions (journeys/ and questions/) copied to `to`.
fn copy_tree(root: &std::path::Path, to: &std::path::Path) {
    for folder in ["journeys", "questions"] {
        copy_dir(&root.join(folder), &to.join(folder));
    }
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(entry.file_name()));
        } else {
            std::fs::copy(&path, to.join(entry.file_name())).expect("copy");
        }
    }
}
