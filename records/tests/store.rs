//! The store's invariants, on SQLite always and on PostgreSQL when `OVERHEID_TEST_POSTGRES_URL`
//! names a database (`tests/postgres/run.sh` starts one). Without it the PostgreSQL tests say
//! so in one line and pass, unless `OVERHEID_TEST_REQUIRE_POSTGRES=1` (as `.ci/run` sets):
//! then a skip is a failure.
#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario read top to bottom; the lint holds production code (issue 42.5)"
)]

use std::os::unix::fs::PermissionsExt;
use std::sync::{Arc, Barrier};

use chrono::{DateTime, Duration, Utc};
use overheid_records::{
    Apply, Begun, DATABASE_FILE, Decision, Error, Filing, Location, NewProposal, Person,
    ProposedCall, ProposingClient, Status, Store, Verdict,
};
use serde_json::json;

fn sqlite() -> (tempfile::TempDir, Location) {
    let dir = tempfile::tempdir().unwrap();
    let location = Location::Sqlite(dir.path().join("data"));
    (dir, location)
}

/// The shared database of the PostgreSQL tests, or `None` (the test says it skips).
fn postgres() -> Option<Location> {
    test_support::postgres::url().map(Location::Postgres)
}

/// A company number no other test (or earlier run on the same database) uses.
fn company() -> String {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).unwrap();
    format!("{:08}", u64::from_le_bytes(bytes) % 100_000_000)
}

fn digest(seed: &str) -> String {
    use std::fmt::Write;
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).unwrap();
    let mut out = String::new();
    for b in bytes {
        write!(out, "{b:02x}").unwrap();
    }
    let _ = seed;
    out
}

fn proposal(company: &str, plan_digest: &str) -> NewProposal {
    NewProposal {
        call: ProposedCall {
            company: company.into(),
            tool: "rvo-cli".into(),
            command: "rapportage indienen".into(),
            input: json!({"kvk_nummer": company, "maatregelen": ["LED"]}),
            plan: json!({"plan_digest": plan_digest}),
            plan_digest: plan_digest.into(),
            concept_digest: None,
            binding: None,
        },
        ttl: overheid_records::DEFAULT_TTL,
        proposed_by: Person {
            subject: "unix:1001@host".into(),
            name: "Bo".into(),
            method: "unix".into(),
        },
        proposed_via: ProposingClient::declared(Some("claude-code 2.1.3"), Some("agent-app")),
    }
}

fn person() -> Person {
    Person {
        subject: "unix:1000@host".into(),
        name: "Ada".into(),
        method: "terminal".into(),
    }
}

fn filing(company: &str, key: &str) -> Filing {
    Filing {
        key: key.into(),
        reference: format!("REF-{}", &digest("r")[..16]),
        company: company.into(),
        tool: "rvo-cli".into(),
        request_sha256: "aa".repeat(32),
        request: json!({"kvk_nummer": company}),
        result: json!({"status": "ONTVANGEN"}),
        filed_at: Utc::now(),
        proposal_id: None,
    }
}

/// Opens, proposes and approves: the approved proposal's id and digest.
fn approved(location: &Location, company: &str) -> (String, String) {
    let mut store = Store::open(location, None).unwrap();
    let plan_digest = digest("p");
    let (p, new) = store
        .propose(&proposal(company, &plan_digest), Utc::now())
        .unwrap();
    assert!(new);
    store
        .decide(
            &p.id,
            Some(company),
            Verdict {
                decision: Decision::Approve,
                by: &person(),
                seen_digest: &plan_digest,
                token: None,
            },
            Utc::now(),
        )
        .unwrap();
    (p.id, plan_digest)
}

/// Applies by id: `true` when this call filed, `false` when it found the filing made before.
fn apply(location: &Location, company: &str, id: &str, plan_digest: &str) -> Result<bool, Error> {
    let store = Store::open(location, None)?;
    let apply = Apply {
        proposal_id: id,
        plan_digest,
    };
    match store.begin_filing(Some(apply), Utc::now(), || Ok(filing(company, plan_digest)))? {
        Begun::Pending(pending) => pending.commit().map(|_| true),
        Begun::Filed(..) => Ok(false),
    }
}

fn lifecycle(location: &Location) {
    let company = company();
    let mut store = Store::open(location, None).unwrap();
    let plan_digest = digest("p");
    let now = Utc::now();
    let (first, new) = store
        .propose(&proposal(&company, &plan_digest), now)
        .unwrap();
    assert!(new && first.status == Status::Open && first.decision.is_none());
    assert!(overheid_records::is_proposal_id(&first.id));
    assert_eq!(first.expires_at - first.created_at, Duration::days(7));
    let (again, new) = store
        .propose(&proposal(&company, &plan_digest), now)
        .unwrap();
    assert!(!new, "the same input gives back the same open proposal");
    assert_eq!(again.id, first.id);
    // Who proposed: recorded with the first event, and kept when someone else proposes again.
    let proposer = proposal(&company, &plan_digest).proposed_by;
    assert_eq!(first.proposed_by.as_ref(), Some(&proposer));
    let mut other = proposal(&company, &plan_digest);
    other.proposed_by.subject = "someone-else".into();
    let (again, _) = store.propose(&other, now).unwrap();
    assert_eq!(again.proposed_by.as_ref(), Some(&proposer));
    let events = store.events(&first.id).unwrap();
    assert_eq!(events[0].by.as_ref(), Some(&proposer));
    let listed = store.proposals(Some(&company), None, now).unwrap();
    assert_eq!(listed[0].proposed_by.as_ref(), Some(&proposer));
    // The client it came through likewise, the first one's.
    let via = proposal(&company, &plan_digest).proposed_via;
    assert_eq!(first.proposed_via, via);
    assert_eq!(listed[0].proposed_via, via);
    let mut through_another = proposal(&company, &plan_digest);
    through_another.proposed_via = ProposingClient::declared(Some("andere-client 1"), None);
    let (again, _) = store.propose(&through_another, now).unwrap();
    assert_eq!(again.proposed_via, via);

    // Another company's id reads as unknown; so does a malformed one.
    assert_eq!(
        store.proposal(&first.id, Some("99999999"), now).unwrap(),
        None
    );
    assert_eq!(store.proposal("vs_nonsense", None, now).unwrap(), None);
    assert!(matches!(
        store.decide(
            &first.id,
            Some("99999999"),
            Verdict {
                decision: Decision::Approve,
                by: &person(),
                seen_digest: &plan_digest,
                token: None
            },
            now
        ),
        Err(Error::NotFound)
    ));
    // Only the digest of the plan approves.
    assert!(matches!(
        store.decide(
            &first.id,
            Some(&company),
            Verdict {
                decision: Decision::Approve,
                by: &person(),
                seen_digest: &digest("x"),
                token: None
            },
            now
        ),
        Err(Error::DigestMismatch)
    ));
    // Not approved yet: applying is refused, nothing filed.
    assert!(matches!(
        apply(location, &company, &first.id, &plan_digest),
        Err(Error::Refused(Status::Open))
    ));
    let decided = store
        .decide(
            &first.id,
            Some(&company),
            Verdict {
                decision: Decision::Approve,
                by: &person(),
                seen_digest: &plan_digest,
                token: None,
            },
            now,
        )
        .unwrap();
    assert_eq!(decided.status, Status::Approved);
    let approval = decided.decision.unwrap();
    assert_eq!(
        (approval.by, approval.digest),
        (person(), plan_digest.clone())
    );
    assert!(matches!(
        store.decide(
            &first.id,
            None,
            Verdict {
                decision: Decision::Decline,
                by: &person(),
                seen_digest: &plan_digest,
                token: None
            },
            now
        ),
        Err(Error::Refused(Status::Approved))
    ));
    // A plan that changed since the approval is refused.
    assert!(matches!(
        apply(location, &company, &first.id, &digest("changed")),
        Err(Error::DigestMismatch)
    ));
    assert!(store.filing(&plan_digest).unwrap().is_none());

    assert!(apply(location, &company, &first.id, &plan_digest).unwrap());
    assert!(
        !apply(location, &company, &first.id, &plan_digest).unwrap(),
        "a retry replays"
    );
    let filed = store.proposal(&first.id, None, now).unwrap().unwrap();
    assert_eq!(filed.status, Status::Filed);
    assert_eq!(filed.filing_key.as_deref(), Some(plan_digest.as_str()));
    let filing = store.filing(&plan_digest).unwrap().unwrap();
    assert_eq!(filing.proposal_id.as_deref(), Some(first.id.as_str()));
    assert_eq!(
        filed.result_digest,
        Some(filing.result_digest()),
        "the proposal keeps the digest of the result, never the result"
    );
    assert_eq!(store.filings(Some(&company)).unwrap().0.len(), 1);

    let events: Vec<Status> = store
        .events(&first.id)
        .unwrap()
        .into_iter()
        .map(|e| e.status)
        .collect();
    assert_eq!(events, [Status::Open, Status::Approved, Status::Filed]);
    let listed = store
        .proposals(Some(&company), Some(Status::Filed), now)
        .unwrap();
    assert_eq!(listed.len(), 1);
    assert!(
        store
            .proposals(Some(&company), Some(Status::Open), now)
            .unwrap()
            .is_empty()
    );
}

fn declined_and_expired(location: &Location) {
    let company = company();
    let mut store = Store::open(location, None).unwrap();
    let now = Utc::now();
    let declined_digest = digest("d");
    let (declined, _) = store
        .propose(&proposal(&company, &declined_digest), now)
        .unwrap();
    store
        .decide(
            &declined.id,
            None,
            Verdict {
                decision: Decision::Decline,
                by: &person(),
                seen_digest: &declined_digest,
                token: None,
            },
            now,
        )
        .unwrap();
    assert!(matches!(
        apply(location, &company, &declined.id, &declined_digest),
        Err(Error::Refused(Status::Declined))
    ));
    // A declined proposal is not live: the same input proposes anew.
    let (fresh, new) = store
        .propose(&proposal(&company, &declined_digest), now)
        .unwrap();
    assert!(new && fresh.id != declined.id);

    let expiring_digest = digest("e");
    let mut short = proposal(&company, &expiring_digest);
    short.ttl = Duration::seconds(1);
    let (expiring, _) = store.propose(&short, now).unwrap();
    let later = now + Duration::seconds(2);
    let read = store.proposal(&expiring.id, None, later).unwrap().unwrap();
    assert_eq!(read.status, Status::Expired);
    assert!(matches!(
        store.decide(
            &expiring.id,
            None,
            Verdict {
                decision: Decision::Approve,
                by: &person(),
                seen_digest: &expiring_digest,
                token: None
            },
            later
        ),
        Err(Error::Refused(Status::Expired))
    ));
    let history: Vec<Status> = store
        .events(&expiring.id)
        .unwrap()
        .into_iter()
        .map(|e| e.status)
        .collect();
    assert_eq!(
        history,
        [Status::Open, Status::Expired],
        "the expiry is recorded"
    );

    // Approved, then expired before it was applied: refused, nothing filed.
    let approved_digest = digest("a");
    let mut short = proposal(&company, &approved_digest);
    short.ttl = Duration::milliseconds(300);
    let (p, _) = store.propose(&short, Utc::now()).unwrap();
    store
        .decide(
            &p.id,
            None,
            Verdict {
                decision: Decision::Approve,
                by: &person(),
                seen_digest: &approved_digest,
                token: None,
            },
            Utc::now(),
        )
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(400));
    assert!(matches!(
        apply(location, &company, &p.id, &approved_digest),
        Err(Error::Refused(Status::Expired))
    ));
    assert!(store.filing(&approved_digest).unwrap().is_none());
}

fn concurrent_applies(location: &Location) {
    let company = company();
    let (id, plan_digest) = approved(location, &company);
    let barrier = Arc::new(Barrier::new(20));
    let threads: Vec<_> = (0..20)
        .map(|_| {
            let (location, company, id, plan_digest, barrier) = (
                location.clone(),
                company.clone(),
                id.clone(),
                plan_digest.clone(),
                barrier.clone(),
            );
            std::thread::spawn(move || {
                barrier.wait();
                apply(&location, &company, &id, &plan_digest).unwrap()
            })
        })
        .collect();
    let filed = threads
        .into_iter()
        .map(|t| t.join().unwrap())
        .filter(|filed| *filed)
        .count();
    assert_eq!(filed, 1, "20 concurrent applies file once");
    let mut store = Store::open(location, None).unwrap();
    assert_eq!(store.filings(Some(&company)).unwrap().0.len(), 1);
}

fn dropped_filing_files_nothing(location: &Location) {
    let company = company();
    let (id, plan_digest) = approved(location, &company);
    let store = Store::open(location, None).unwrap();
    let apply_it = Apply {
        proposal_id: &id,
        plan_digest: &plan_digest,
    };
    let begun = store
        .begin_filing(Some(apply_it), Utc::now(), || {
            Ok(filing(&company, &plan_digest))
        })
        .unwrap();
    assert!(matches!(begun, Begun::Pending(_)));
    drop(begun);
    let mut store = Store::open(location, None).unwrap();
    assert!(store.filing(&plan_digest).unwrap().is_none());
    let p = store.proposal(&id, None, Utc::now()).unwrap().unwrap();
    assert_eq!(
        p.status,
        Status::Approved,
        "a rolled-back apply leaves it approved"
    );
    assert!(apply(location, &company, &id, &plan_digest).unwrap());
}

#[test]
fn sqlite_lifecycle() {
    let (_dir, location) = sqlite();
    lifecycle(&location);
}

#[test]
fn sqlite_declined_and_expired() {
    let (_dir, location) = sqlite();
    declined_and_expired(&location);
}

#[test]
fn sqlite_twenty_concurrent_applies_file_once() {
    let (_dir, location) = sqlite();
    concurrent_applies(&location);
}

#[test]
fn sqlite_a_dropped_filing_files_nothing() {
    let (_dir, location) = sqlite();
    dropped_filing_files_nothing(&location);
}

#[test]
fn sqlite_file_is_0600_in_a_0700_directory() {
    let (dir, location) = sqlite();
    Store::open(&location, None).unwrap();
    let data = dir.path().join("data");
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&data), 0o700);
    assert_eq!(mode(&data.join(DATABASE_FILE)), 0o600);
}

/// A new, empty store file (0600 in a 0700 directory), as the first filing finds it.
fn new_store() -> (tempfile::TempDir, Location, std::path::PathBuf) {
    let (dir, location) = sqlite();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o700)).unwrap();
    let file = data.join(DATABASE_FILE);
    std::fs::File::create(&file).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    (dir, location, file)
}

/// A connection that holds the write lock of `file` until it commits or is dropped.
fn write_held(file: &std::path::Path) -> rusqlite::Connection {
    let writer = rusqlite::Connection::open(file).unwrap();
    writer.execute_batch("BEGIN IMMEDIATE").unwrap();
    writer
}

/// Switching a new store to WAL is an upgrade of a read transaction, for which SQLite calls no
/// busy handler: while another process writes the new store (as another process switching it
/// does), the switch fails at once. Opening waits for it until the deadline instead (twenty
/// filings starting at once on a new store failed with exit 124 after 0.2 s of a 10 s deadline).
#[test]
fn sqlite_a_new_store_opens_while_another_connection_writes_it() {
    let (_dir, location, file) = new_store();
    let writer = write_held(&file);
    let held = std::time::Duration::from_millis(200);
    let release = std::thread::spawn(move || {
        std::thread::sleep(held);
        writer.execute_batch("COMMIT").unwrap();
    });

    let started = std::time::Instant::now();
    let deadline = started + std::time::Duration::from_secs(10);
    let opened = Store::open(&location, Some(deadline));
    let waited = started.elapsed();
    release.join().unwrap();
    opened.expect("the store opens once the writer is done");
    assert!(
        waited >= held / 2,
        "opened after {waited:?}, while the writer held it"
    );
    let mode: String = rusqlite::Connection::open(&file)
        .unwrap()
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

/// A writer that never ends holds the switch to WAL off until the deadline, and no longer.
#[test]
fn sqlite_a_new_store_held_by_a_writer_gives_up_at_the_deadline() {
    let (_dir, location, file) = new_store();
    let _writer = write_held(&file);

    let started = std::time::Instant::now();
    let deadline = started + std::time::Duration::from_millis(300);
    let opened = Store::open(&location, Some(deadline));
    let waited = started.elapsed();
    assert!(matches!(opened, Err(Error::Busy)), "{:?}", opened.err());
    assert!(
        waited >= std::time::Duration::from_millis(250)
            && waited < std::time::Duration::from_secs(3),
        "gave up after {waited:?}"
    );
}

#[test]
fn sqlite_refuses_a_directory_others_can_write() {
    for bits in [0o777, 0o770, 0o1777] {
        let (dir, location) = sqlite();
        let data = dir.path().join("data");
        std::fs::create_dir(&data).unwrap();
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(bits)).unwrap();
        match Store::open(&location, None) {
            Err(Error::Unsafe { why, .. }) => assert!(why.contains("schrijven"), "{why}"),
            other => panic!("{bits:o}: {:?}", other.err()),
        }
        assert!(!data.join(DATABASE_FILE).exists(), "nothing is created");
    }
}

#[test]
fn sqlite_refuses_a_file_others_can_read() {
    let (dir, location) = sqlite();
    Store::open(&location, None).unwrap();
    let file = dir.path().join("data").join(DATABASE_FILE);
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert!(matches!(
        Store::open(&location, None),
        Err(Error::Unsafe { .. })
    ));
}

#[test]
fn postgres_lifecycle() {
    if let Some(location) = postgres() {
        lifecycle(&location);
    }
}

#[test]
fn postgres_declined_and_expired() {
    if let Some(location) = postgres() {
        declined_and_expired(&location);
    }
}

#[test]
fn postgres_twenty_concurrent_applies_file_once() {
    if let Some(location) = postgres() {
        concurrent_applies(&location);
    }
}

#[test]
fn postgres_a_dropped_filing_files_nothing() {
    if let Some(location) = postgres() {
        dropped_filing_files_nothing(&location);
    }
}

#[test]
fn postgres_unreachable_is_said_without_the_password() {
    let location = Location::Postgres("postgres://app:s3cret@127.0.0.1:1/records".into());
    match Store::open(&location, None) {
        Err(error @ Error::Unreachable(_)) => {
            let text = error.to_string();
            assert!(!text.contains("s3cret"), "{text}");
        }
        other => panic!("{:?}", other.err()),
    }
}

/// F8: another company's record, even a damaged one, reads as unknown, never as damage (which
/// would say that it exists); the company's own damaged record is named by its key, and a list
/// leaves it out and keeps the sound ones.
#[test]
fn sqlite_another_companys_damaged_record_reads_as_unknown() {
    let (_dir, location) = sqlite();
    let owner = company();
    let (id, plan_digest) = approved(&location, &owner);
    assert!(apply(&location, &owner, &id, &plan_digest).unwrap());
    let mut store = Store::open(&location, None).unwrap();
    let reference = store.filing(&plan_digest).unwrap().unwrap().reference;
    let Begun::Pending(sound) = Store::open(&location, None)
        .unwrap()
        .begin_filing(None, Utc::now(), || Ok(filing(&owner, &digest("s"))))
        .unwrap()
    else {
        panic!("a new key files");
    };
    sound.commit().unwrap();

    let db = rusqlite::Connection::open(match &location {
        Location::Sqlite(dir) => dir.join(DATABASE_FILE),
        Location::Postgres(_) => unreachable!(),
    })
    .unwrap();
    db.execute(
        "UPDATE overheid_filings SET result = '{' WHERE idempotency_key = ?1",
        [&plan_digest],
    )
    .unwrap();
    db.execute(
        "UPDATE overheid_proposals SET plan = '{' WHERE id = ?1",
        [&id],
    )
    .unwrap();

    let other = company();
    assert!(
        store
            .filing_by_reference(&reference, Some(&other))
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .proposal(&id, Some(&other), Utc::now())
            .unwrap()
            .is_none()
    );
    assert_eq!(
        store.filing_company(&reference).unwrap().as_deref(),
        Some(owner.as_str())
    );
    match store.filing_by_reference(&reference, Some(&owner)) {
        Err(Error::Corrupt(detail)) => assert!(detail.contains(&plan_digest), "{detail}"),
        other => panic!("expected the damage, got {other:?}"),
    }
    assert!(matches!(
        store.proposal(&id, Some(&owner), Utc::now()),
        Err(Error::Corrupt(_))
    ));
    let (sound, damaged) = store.filings(Some(&owner)).unwrap();
    assert_eq!(sound.len(), 1);
    assert_eq!(damaged.len(), 1);
    assert_eq!(damaged[0].key, plan_digest);
}

/// A new filing whose reference number is another filing's gets another number (the taken
/// one is checked in the insert itself), and the first filing is left as it was.
fn a_taken_reference_is_made_again(location: &Location) {
    let company = company();
    let first = filing(&company, &digest("k1"));
    let store = Store::open(location, None).unwrap();
    let Begun::Pending(pending) = store
        .begin_filing(None, Utc::now(), || Ok(first.clone()))
        .unwrap()
    else {
        panic!("a new key files")
    };
    pending.commit().unwrap();
    let key = digest("k2");
    let mut made = 0;
    let store = Store::open(location, None).unwrap();
    let Begun::Pending(pending) = store
        .begin_filing(None, Utc::now(), || {
            made += 1;
            let mut next = filing(&company, &key);
            if made == 1 {
                next.reference = first.reference.clone();
            }
            Ok(next)
        })
        .unwrap()
    else {
        panic!("a new key files")
    };
    assert_ne!(pending.filing().reference, first.reference);
    let mut store = pending.commit().unwrap();
    assert_eq!(made, 2, "made once more for the taken reference");
    assert_eq!(
        store.filing(&first.key).unwrap().unwrap().reference,
        first.reference
    );
    assert_eq!(store.filing(&key).unwrap().unwrap().key, key);
}

#[test]
fn sqlite_a_taken_reference_is_made_again() {
    let (_dir, location) = sqlite();
    a_taken_reference_is_made_again(&location);
}

#[test]
fn postgres_a_taken_reference_is_made_again() {
    if let Some(location) = postgres() {
        a_taken_reference_is_made_again(&location);
    }
}

/// The pool hands a connection back out after work that succeeded or was refused by the
/// records, drops it after an error of the connection, and keeps at most its limit.
fn pool_reuses_sound_connections(location: &Location) {
    use overheid_records::Pool;
    let pool = Pool::new(location.clone(), std::time::Duration::from_secs(10), 2);
    let company = company();
    assert_eq!(pool.idle(), 0);
    let (id, _) = approved(location, &company);
    let found = pool
        .with(|store| store.proposal(&id, Some(&company), Utc::now()))
        .unwrap();
    assert_eq!(found.unwrap().status, Status::Approved);
    assert_eq!(pool.idle(), 1, "kept after a read");
    // Refused by the records (already approved): the connection is sound and kept.
    let refused = pool.with(|store| {
        store.decide(
            &id,
            Some(&company),
            Verdict {
                decision: Decision::Approve,
                by: &person(),
                seen_digest: &digest("other"),
                token: None,
            },
            Utc::now(),
        )
    });
    assert!(matches!(refused, Err(Error::DigestMismatch)), "{refused:?}");
    assert_eq!(pool.idle(), 1, "kept after a refusal, and reused");
    let failed: Result<(), Error> = pool.with(|_| Err(Error::Database("kapot".into())));
    assert!(failed.is_err());
    assert_eq!(pool.idle(), 0, "dropped after an error of the database");
    // Three at once: three connections, two kept.
    let pool = Arc::new(pool);
    let barrier = Arc::new(Barrier::new(3));
    let workers: Vec<_> = (0..3)
        .map(|_| {
            let (pool, barrier) = (Arc::clone(&pool), Arc::clone(&barrier));
            std::thread::spawn(move || {
                pool.with(|store| {
                    barrier.wait();
                    store.proposals(None, Some(Status::Filed), Utc::now())
                })
                .map(|_| ())
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap().unwrap();
    }
    assert_eq!(pool.idle(), 2, "at most the limit is kept");
}

#[test]
fn sqlite_pool_reuses_sound_connections() {
    let (_dir, location) = sqlite();
    pool_reuses_sound_connections(&location);
}

#[test]
fn postgres_pool_reuses_sound_connections() {
    if let Some(location) = postgres() {
        pool_reuses_sound_connections(&location);
    }
}

/// A connection's close leaves the WAL (no checkpoint per process): the next process opens
/// it as it is, and a fresh connection reads every commit from it.
#[test]
fn sqlite_a_closed_connection_leaves_its_commits_in_the_wal() {
    let (dir, location) = sqlite();
    let company = company();
    let (id, _) = approved(&location, &company);
    let wal = dir.path().join("data").join(format!("{DATABASE_FILE}-wal"));
    assert!(wal.exists(), "the WAL outlives the connection");
    let mode = std::fs::metadata(&wal).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the WAL is the user's alone, as the database");
    let mut store = Store::open(&location, None).unwrap();
    assert_eq!(
        store
            .proposal(&id, None, Utc::now())
            .unwrap()
            .unwrap()
            .status,
        Status::Approved
    );
}

/// The tables of the first release that numbered nothing (schema 1), as that release made them
/// (SQL both databases run): what a store being upgraded holds. That release kept no version on
/// PostgreSQL (tables without a comment are version 1); on SQLite it set `user_version=1`.
const SCHEMA_1: &str = "
    CREATE TABLE overheid_proposals (id TEXT PRIMARY KEY, company TEXT NOT NULL, tool TEXT NOT NULL,
        command TEXT NOT NULL, input TEXT NOT NULL, plan TEXT NOT NULL, plan_digest TEXT NOT NULL,
        concept_digest TEXT, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'approved', 'declined', 'expired', 'filed')),
        decided_by_subject TEXT, decided_by_name TEXT, decided_by_method TEXT, decided_at BIGINT,
        decided_digest TEXT, filing_key TEXT, result_digest TEXT);
    CREATE UNIQUE INDEX overheid_proposals_live ON overheid_proposals (company, tool, command, plan_digest)
        WHERE status IN ('open', 'approved');
    CREATE INDEX overheid_proposals_company ON overheid_proposals (company, created_at);
    CREATE TABLE overheid_proposal_events (proposal_id TEXT NOT NULL REFERENCES overheid_proposals (id),
        seq BIGINT NOT NULL, at BIGINT NOT NULL, status TEXT NOT NULL, by_subject TEXT, by_name TEXT,
        by_method TEXT, digest TEXT, PRIMARY KEY (proposal_id, seq));
    CREATE TABLE overheid_filings (idempotency_key TEXT PRIMARY KEY, reference TEXT NOT NULL UNIQUE,
        company TEXT NOT NULL, tool TEXT NOT NULL, request_sha256 TEXT NOT NULL, request TEXT NOT NULL,
        result TEXT NOT NULL, filed_at BIGINT NOT NULL, proposal_id TEXT);
    CREATE INDEX overheid_filings_company ON overheid_filings (company, filed_at);";

/// A store made by the previous release (schema 1, a proposal open in it) is upgraded once on
/// first open: the proposal reads (without a binding), is approved with a token and applied;
/// new proposals carry their binding.
#[test]
fn sqlite_a_store_of_the_previous_release_is_upgraded() {
    let (_dir, location, file) = new_store();
    let now = Utc::now();
    let old = rusqlite::Connection::open(&file).unwrap();
    old.execute_batch(SCHEMA_1).unwrap();
    old.execute_batch("PRAGMA user_version=1").unwrap();
    let plan_digest = digest("oud");
    old.execute(
        "INSERT INTO overheid_proposals (id, company, tool, command, input, plan, plan_digest, \
         created_at, expires_at, status) VALUES (?1, '68750110', 'rvo-cli', 'rapportage indienen', \
         '{}', '{}', ?2, ?3, ?4, 'open')",
        rusqlite::params![
            format!("vs_{}", "a".repeat(32)),
            plan_digest,
            now.timestamp_millis(),
            (now + Duration::days(1)).timestamp_millis()
        ],
    )
    .unwrap();
    drop(old);

    let id = format!("vs_{}", "a".repeat(32));
    the_old_proposal_is_read_approved_and_filed(&location, &id, &plan_digest, now);
    // Once: the version is the newest, and opening again runs nothing.
    let version: i64 = rusqlite::Connection::open(&file)
        .unwrap()
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .unwrap();
    assert_eq!(version, 3);
    Store::open(&location, None).unwrap();
}

/// A schema of its own in the test database, dropped with everything in it when the test ends
/// (also when it fails): a store made by an older release beside the shared, newest one.
struct OwnSchema {
    admin: postgres::Client,
    name: String,
    /// The test database's URL with this schema as its `search_path`.
    url: String,
}

impl OwnSchema {
    fn create(url: &str) -> OwnSchema {
        let mut admin = postgres::Client::connect(url, postgres::NoTls).unwrap();
        let name = format!("upgrade_{}", &digest("s")[..16]);
        admin
            .batch_execute(&format!("CREATE SCHEMA {name}"))
            .unwrap();
        let separator = if url.contains('?') { '&' } else { '?' };
        let url = format!("{url}{separator}options=-c%20search_path%3D{name}");
        OwnSchema { admin, name, url }
    }

    /// Every relation of the schema (tables, indexes) with the transaction that last changed
    /// its catalog row and its comment: what DDL (a migration, a version comment) would change.
    fn catalog(&mut self) -> Vec<String> {
        self.admin
            .query(
                "SELECT c.relname || ' ' || c.xmin::text || ' ' || COALESCE(d.xmin::text, '-') \
                 FROM pg_catalog.pg_class c \
                 JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
                 LEFT JOIN pg_catalog.pg_description d ON d.objoid = c.oid \
                 AND d.classoid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.objsubid = 0 \
                 WHERE n.nspname = $1 ORDER BY c.relname",
                &[&self.name],
            )
            .unwrap()
            .iter()
            .map(|row| row.get(0))
            .collect()
    }

    /// The version comment on the filings table.
    fn version(&mut self) -> Option<String> {
        let table = format!("{}.overheid_filings", self.name);
        self.admin
            .query_one(
                "SELECT obj_description(to_regclass($1), 'pg_class')",
                &[&table],
            )
            .unwrap()
            .get(0)
    }
}

impl Drop for OwnSchema {
    fn drop(&mut self) {
        let dropped = self
            .admin
            .batch_execute(&format!("DROP SCHEMA {} CASCADE", self.name));
        if let Err(error) = dropped
            && !std::thread::panicking()
        {
            panic!("DROP SCHEMA {}: {error}", self.name);
        }
    }
}

/// The PostgreSQL counterpart of `sqlite_a_store_of_the_previous_release_is_upgraded`, in a
/// schema of its own: a store made by the previous release (schema 1, no version comment, a
/// proposal open in it) is upgraded once on first open: the proposal reads (without a binding),
/// is approved with a token and applied; the version is the newest, and opening again changes
/// nothing in the catalog.
#[test]
fn postgres_a_store_of_the_previous_release_is_upgraded() {
    let Some(url) = test_support::postgres::url() else {
        return;
    };
    let mut schema = OwnSchema::create(&url);
    let location = Location::Postgres(schema.url.clone());
    let now = Utc::now();
    let id = format!("vs_{}", "a".repeat(32));
    let plan_digest = digest("oud");
    {
        let mut old = postgres::Client::connect(&schema.url, postgres::NoTls).unwrap();
        old.batch_execute(SCHEMA_1).unwrap();
        old.execute(
            "INSERT INTO overheid_proposals (id, company, tool, command, input, plan, plan_digest, \
             created_at, expires_at, status) VALUES ($1, '68750110', 'rvo-cli', \
             'rapportage indienen', '{}', '{}', $2, $3, $4, 'open')",
            &[
                &id,
                &plan_digest,
                &now.timestamp_millis(),
                &(now + Duration::days(1)).timestamp_millis(),
            ],
        )
        .unwrap();
    }
    assert_eq!(
        schema.version(),
        None,
        "the previous release kept no version"
    );

    the_old_proposal_is_read_approved_and_filed(&location, &id, &plan_digest, now);
    // Once: the version is the newest, and opening again runs nothing (no statement that
    // changes a table, an index or the version comment).
    assert_eq!(
        schema.version().as_deref(),
        Some("overheid-records schema 3")
    );
    let migrated = schema.catalog();
    let mut store = Store::open(&location, None).unwrap();
    assert_eq!(
        store.proposal(&id, None, now).unwrap().unwrap().status,
        Status::Filed
    );
    drop(store);
    assert_eq!(
        schema.catalog(),
        migrated,
        "a second open changed the schema"
    );
}

/// After an upgrade, the previous release's open proposal `id` reads as open (without a binding
/// or a client), is approved with a person's token, and is filed.
fn the_old_proposal_is_read_approved_and_filed(
    location: &Location,
    id: &str,
    plan_digest: &str,
    now: DateTime<Utc>,
) {
    let mut store = Store::open(location, None).unwrap();
    let read = store.proposal(id, None, now).unwrap().unwrap();
    assert_eq!((read.status, read.call.binding), (Status::Open, None));
    assert_eq!(read.proposed_via, None);
    let decided = store
        .decide(
            id,
            None,
            Verdict {
                decision: Decision::Approve,
                by: &person(),
                seen_digest: plan_digest,
                token: Some("eyJ.token.van-de-persoon"),
            },
            now,
        )
        .unwrap();
    let approval = decided.decision.unwrap();
    assert_eq!(approval.token.as_deref(), Some("eyJ.token.van-de-persoon"));
    assert!(apply(location, "68750110", id, plan_digest).unwrap());
}

/// A store of a newer major format is refused before anything is read or changed.
#[test]
fn sqlite_a_store_of_a_newer_major_format_is_refused() {
    let (_dir, location, file) = new_store();
    rusqlite::Connection::open(&file)
        .unwrap()
        .execute_batch("PRAGMA user_version=1000")
        .unwrap();
    let opened = Store::open(&location, None);
    match opened {
        Err(Error::Config(detail)) => assert!(detail.contains("schemaversie 1000"), "{detail}"),
        other => panic!("expected a refusal, got {:?}", other.err()),
    }
}

/// The binding (backend, date) is part of what makes a proposal: the same plan for another
/// backend is another proposal, the same binding gives the same one back. The token is kept with
/// the decision and never serialised.
fn bindings(location: &Location) {
    let company = company();
    let mut store = Store::open(location, None).unwrap();
    let plan_digest = digest("b");
    let bound = |backend: &str| {
        let mut new = proposal(&company, &plan_digest);
        new.call.binding =
            Some(json!({"kvk_nummer": company, "backend": backend, "peildatum": "2026-12-06"}));
        new
    };
    let now = Utc::now();
    let (local, new_local) = store.propose(&bound("lokaal"), now).unwrap();
    let (again, new_again) = store.propose(&bound("lokaal"), now).unwrap();
    let (remote, new_remote) = store.propose(&bound("https://rvo.example"), now).unwrap();
    assert!(new_local && !new_again && new_remote);
    assert_eq!(local.id, again.id);
    assert_ne!(local.id, remote.id);
    assert_eq!(
        remote.call.binding.as_ref().unwrap()["backend"],
        json!("https://rvo.example")
    );
    let decided = store
        .decide(
            &remote.id,
            Some(&company),
            Verdict {
                decision: Decision::Approve,
                by: &person(),
                seen_digest: &plan_digest,
                token: Some("geheim-goedkeuringstoken"),
            },
            now,
        )
        .unwrap();
    assert_eq!(
        decided.decision.as_ref().unwrap().token.as_deref(),
        Some("geheim-goedkeuringstoken")
    );
    let printed = serde_json::to_string(&decided).unwrap();
    assert!(!printed.contains("geheim-goedkeuringstoken"), "{printed}");
}

#[test]
fn sqlite_a_binding_makes_a_proposal_of_its_own() {
    let (_dir, location) = sqlite();
    bindings(&location);
}

#[test]
fn postgres_a_binding_makes_a_proposal_of_its_own() {
    let Some(location) = postgres() else { return };
    bindings(&location);
}
