//! A damaged local store: a bad record is named in its own error (`OPSLAG_BESCHADIGD`, exit 74)
//! where it is needed, and set aside everywhere else, so the sound reports stay readable.

use crate::support::{Sandbox, indienen, indienen_digest};

#[test]
fn a_bad_record_is_named_and_the_sound_ones_stay_readable() {
    let sandbox = Sandbox::new();
    let sound = sandbox.run(indienen("LED", &["--confirm"])).json();
    sandbox.run(indienen("Warmtepomp", &["--confirm"])).json();
    let bad_key = indienen_digest(&serde_json::json!({
        "kvk_nummer": "68750110",
        "regeling_id": "EBR-2027",
        "maatregelen": ["warmtepomp"],
    }));
    let bad_file = sandbox
        .data_dir()
        .join(rvo_cli::store::RECORDS_DIR)
        .join(format!("{bad_key}.json"));
    let text = std::fs::read_to_string(&bad_file).unwrap();
    std::fs::write(&bad_file, &text[..text.len() / 2]).unwrap();
    let bad_name = bad_file.display().to_string();

    // The list shows the sound report and names the bad file (data and a warning).
    let listed = sandbox
        .run(["rapportage", "lijst", "68750110"])
        .json_after_warnings();
    assert_eq!(listed["aantal"], 1, "{listed:#}");
    assert_eq!(
        listed["rapportages"][0]["referentienummer"],
        sound["referentienummer"]
    );
    assert_eq!(listed["onleesbaar"][0]["bestand"], bad_name.as_str());

    // The sound report's status is readable.
    let status = sandbox
        .run([
            "rapportage",
            "status",
            sound["referentienummer"].as_str().unwrap(),
        ])
        .json();
    assert_eq!(status["referentienummer"], sound["referentienummer"]);

    // Filing the report whose record is bad names the file and changes nothing.
    let error = sandbox
        .run(indienen("warmtepomp", &["--confirm"]))
        .error(74);
    assert_eq!(error["code"], "OPSLAG_BESCHADIGD", "{error:#}");
    assert!(
        error["detail"].as_str().unwrap().contains(&bad_name),
        "{error:#}"
    );
    assert_eq!(
        std::fs::read_to_string(&bad_file).unwrap(),
        text[..text.len() / 2]
    );

    // Any other report is filed as usual.
    let other = sandbox.run(indienen("Isolatie", &["--confirm"])).json();
    assert_eq!(other["replayed"], false);
}
