//! Hostile environments: a declared variable that is present but not valid UTF-8 is exit 78
//! naming it, never "unset" (CONF-7, SEC-6, SEC-7): no filing for another company, no silent
//! switch to the local store or to its default directory.

use crate::support::{Sandbox, indienen, run};
use test_support::cli::unreadable;

#[test]
fn conf_7_unreadable_variables_are_78_and_nothing_is_filed() {
    for var in ["KVK_SESSIE_NUMMER", "RVO_API_BASE", "RVO_DATA_DIR"] {
        let sandbox = Sandbox::new();
        let elsewhere = sandbox.path().join("elders");
        for args in [
            indienen("LED", &["--confirm"]),
            vec!["rapportage", "lijst", "68750110"],
        ] {
            let mut cmd = sandbox.cmd();
            cmd.env(var, unreadable(elsewhere.to_str().expect("utf-8")));
            let error = run(cmd, &args).error(78);
            assert_eq!(error["code"], "CONFIG_FOUT", "{var}");
            assert!(
                error["detail"].as_str().unwrap().contains(var),
                "{var}: {error}"
            );
        }
        sandbox.assert_store(0);
        assert!(
            !sandbox.path().join(".local").exists(),
            "{var}: no default store"
        );
        let records = sandbox.audit_records();
        assert_eq!(records.len(), 2, "{var}: audited");
        assert!(records.iter().all(|r| r["exit_code"] == 78));
    }
}
