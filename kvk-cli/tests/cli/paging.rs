//! CONV-5 (spec §15.1): `zoek --pagina/--per-pagina` pages, and `--alles` follows every page up
//! to the cap of 10 pages or 1,000 results, saying in `afgekapt` when it stopped there.

use serde_json::{Value, json};
use test_support::Reply;

use crate::support::{KvkFake, Sandbox, assert_valid_against, run, tool_entry};

fn kvk_numbers(data: &Value) -> Vec<String> {
    data["resultaten"]
        .as_array()
        .expect("resultaten")
        .iter()
        .map(|r| format!("{}/{}", r["kvkNummer"], r["type"]))
        .collect()
}

#[test]
fn alles_reads_every_page_and_no_cap_is_reported_when_all_were_read() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let page = |pagina: &str| {
        run(
            sandbox.cmd(&fake.base()),
            [
                "zoek",
                "--naam",
                "Test",
                "--per-pagina",
                "2",
                "--pagina",
                pagina,
            ],
        )
        .json()
    };
    let first = page("1");
    let total = first["totaal"].as_u64().expect("totaal");
    assert!(
        total > 4,
        "the fake has more than two pages of Test: {first}"
    );
    let mut pages = kvk_numbers(&first);
    for pagina in 2..=total.div_ceil(2) {
        pages.extend(kvk_numbers(&page(&pagina.to_string())));
    }
    fake.server.clear_requests();
    let all = run(
        sandbox.cmd(&fake.base()),
        ["zoek", "--naam", "Test", "--per-pagina", "2", "--alles"],
    )
    .json();
    assert_eq!(
        kvk_numbers(&all),
        pages,
        "--alles is the pages one after another"
    );
    assert_eq!(all["totaal"], total);
    assert!(all.get("afgekapt").is_none(), "{all}");
    assert!(
        all.get("volgende").is_none(),
        "the last page has no next one: {all}"
    );
    assert_eq!(fake.server.request_count() as u64, total.div_ceil(2));
    let paged: Vec<Option<String>> = fake
        .server
        .requests()
        .iter()
        .map(|r| r.query_param("pagina").map(str::to_string))
        .collect();
    let expected: Vec<Option<String>> = (1..=total.div_ceil(2))
        .map(|p| Some(p.to_string()))
        .collect();
    assert_eq!(paged, expected);
    assert_valid_against(&tool_entry("zoek")["outputSchema"], &all, "zoek --alles");
}

#[test]
fn alles_stops_at_ten_pages_and_says_so() {
    let fake = KvkFake::with(|request| {
        let pagina: u64 = request
            .query_param("pagina")
            .and_then(|p| p.parse().ok())
            .unwrap_or(1);
        let per: u64 = request
            .query_param("resultatenPerPagina")
            .and_then(|p| p.parse().ok())
            .unwrap_or(10);
        let resultaten: Vec<Value> = (0..per)
            .map(|i| json!({"kvkNummer": format!("{:08}", (pagina - 1) * per + i), "naam": "Veel BV", "type": "hoofdvestiging"}))
            .collect();
        Reply::json(
            200,
            &json!({"pagina": pagina, "resultatenPerPagina": per, "totaal": 5000, "resultaten": resultaten}),
        )
    });
    let sandbox = Sandbox::new();
    let all = run(
        sandbox.cmd(&fake.base()),
        [
            "zoek",
            "--naam",
            "Veel",
            "--per-pagina",
            "3",
            "--pagina",
            "2",
            "--alles",
        ],
    )
    .json();
    assert_eq!(fake.server.request_count(), 10, "at most 10 pages");
    assert_eq!(all["resultaten"].as_array().expect("resultaten").len(), 30);
    assert_eq!(
        all["resultaten"][0]["kvkNummer"], "00000003",
        "from --pagina 2 on"
    );
    assert_eq!(
        all["afgekapt"],
        json!({"reden": "maximaal 10 pagina's", "paginas": 10, "resultaten": 30})
    );
    assert_valid_against(
        &tool_entry("zoek")["outputSchema"],
        &all,
        "zoek --alles, capped",
    );
    // Without --alles: one page, no afgekapt.
    fake.server.clear_requests();
    let one = run(
        sandbox.cmd(&fake.base()),
        ["zoek", "--naam", "Veel", "--per-pagina", "3"],
    )
    .json();
    assert_eq!(fake.server.request_count(), 1);
    assert!(one.get("afgekapt").is_none());
}
