//! The operator's actions on the fault panel (the out-of-service taint, the force delete of
//! `db-0`) are set to the second, slid or typed: a slider in 1s steps with a number field
//! beside it, as a flag's slider has. Rendered natively with Yew's server renderer.
#![cfg(not(target_arch = "wasm32"))]

use kubelife::components::faults::{FaultPanel, FaultPanelProps};
use kubelife::settings::Settings;
use yew::Callback;

/// The fault panel on the first visit's settings.
fn render() -> String {
    let props = FaultPanelProps {
        settings: Settings::default(),
        nodes: 3,
        onedit: Callback::noop(),
    };
    let renderer = yew::LocalServerRenderer::<FaultPanel>::with_props(props).hydratable(false);
    futures::executor::block_on(renderer.render())
}

/// The control whose test id is `testid`: its label, from the id to the label's end.
fn control<'a>(html: &'a str, testid: &str) -> &'a str {
    let start = html
        .find(&format!("data-testid=\"{testid}\""))
        .unwrap_or_else(|| panic!("{testid} in {html}"));
    let rest = &html[start..];
    &rest[..rest.find("</label>").expect("a label's end")]
}

#[test]
fn operator_actions_are_slid_or_typed_to_the_second() {
    let html = render();
    for testid in ["ops-out-of-service", "ops-force-delete-db"] {
        let c = control(&html, testid);
        assert_eq!(
            c.matches("<input").count(),
            2,
            "{testid}: a slider and a number field: {c}"
        );
        assert!(
            c.contains("type=\"range\"") && c.contains("type=\"number\""),
            "{testid}: {c}"
        );
        assert_eq!(c.matches("step=\"1\"").count(), 2, "{testid}: both in 1s steps: {c}");
        assert!(
            c.contains("value\""),
            "{testid}: the number field is named as the flags' are: {c}"
        );
    }
    // The other times of the panel keep their steps, with no number field.
    let fault_at = control(&html, "fault-at");
    assert_eq!(fault_at.matches("<input").count(), 1, "{fault_at}");
}
