//! The model's tests: edits, runs laid out once, the view carried over, what the worker is asked.

use super::*;
use crate::settings::Workload;

#[test]
fn edits_change_what_they_name() {
    let mut s = Settings::default();
    Edit::Knob("node-monitor-grace-period", 20.0).apply(&mut s);
    assert_eq!(s.overrides.get("node-monitor-grace-period"), Some(&20.0));
    Edit::Knob("node-monitor-grace-period", 1e9).apply(&mut s);
    assert!(
        s.overrides["node-monitor-grace-period"] < 1e9,
        "clamped to the knob's range"
    );
    Edit::Reset("node-monitor-grace-period").apply(&mut s);
    assert!(s.overrides.is_empty());
    Edit::Version(12).apply(&mut s);
    assert_eq!(s.minor, 12);
    Edit::Number(Field::Replicas(Workload::Web), 7).apply(&mut s);
    assert_eq!(s.web_replicas, 7);
    Edit::Switch(Switch::Toggle("enable-taint-manager"), false).apply(&mut s);
    assert!(!s.enable_taint_manager);
    Edit::FaultKind(ActionKind::KubeletStop).apply(&mut s);
    assert_eq!(s.fault.kind, ActionKind::KubeletStop);
    let before = s.clone();
    Edit::Preset("no-such-preset".into()).apply(&mut s);
    assert!(s == before, "an unknown preset changes nothing");
    Edit::Preset("upstream-1.12".into()).apply(&mut s);
    assert_eq!(s.minor, 12);
}

#[test]
fn a_run_is_equal_only_to_itself() {
    let a = Rc::new(Run::simulate(Settings::default()));
    let again = Run::simulate(Settings::default());
    assert!(*a == *a.clone());
    assert!(*a != again, "the same settings run twice are two runs");
    assert_eq!(a.milestones, milestones(&a.outcome), "laid out once, as read");
    assert_eq!(a.listed.len(), a.listed_at.len());
    assert!(a.listed_at.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn playback_moves_only_the_playhead_and_only_while_playing() {
    let mut m = simulate(Settings::default());
    let run = m.run.clone();
    assert!(!m.view.tick(50.0, m.cfg.duration), "paused: nothing moves");
    m.view.playing = true;
    assert!(m.view.tick(50.0, m.cfg.duration));
    assert_eq!(m.view.t, 500, "50 ms at 10x");
    m.view.speed_exp = 3.0;
    while m.view.tick(50.0, run.cfg.duration) {}
    assert_eq!((m.view.t, m.view.playing), (run.cfg.duration, false));
    assert!(Rc::ptr_eq(&m.run, &run), "the run is never copied");
}

#[test]
fn a_run_arriving_keeps_the_view_and_drops_what_is_no_longer_asked() {
    let mut m = simulate(Settings::default());
    m.view.t = 60_000;
    m.view.speed_exp = 2.0;
    m.view.tour = Some(3);
    let mut s = Settings::default();
    s.set("node-monitor-grace-period", 20.0);
    m.ask(s.clone());
    assert!(m.running() && m.wants().a.is_some());
    let stale = Rc::new(Run::simulate(Settings::default()));
    let m = m.arrived(stale);
    assert!(m.pending.a.is_some(), "a run of settings not asked for is dropped");
    let fresh = Rc::new(Run::simulate(s));
    let m = m.arrived(fresh.clone());
    assert!(Rc::ptr_eq(&m.run, &fresh) && m.pending.a.is_none() && !m.running());
    assert_eq!((m.view.t, m.view.speed_exp, m.view.tour), (60_000, 2.0, Some(3)));
}

#[test]
fn the_embed_code_shows_what_is_on_screen() {
    let mut s = Settings::default();
    s.set("node-monitor-grace-period", 20.0);
    let mut m = simulate(s.clone());
    m.view.t = 90_000;
    m.view.lang = Lang::Zh;
    let q = m.embed_link();
    for part in [
        "embed=1",
        "view=milestones,cluster,timeline,breakdown&",
        "controls=playback,node-monitor-grace-period&",
        "node-monitor-grace-period=20s",
        "t=1m30s",
        "lang=zh",
    ] {
        assert!(q.contains(part), "{part} in {q}");
    }
    assert!(!q.contains("default-unreachable-toleration-seconds"), "{q}");
    // Comparing: side B too, and the comparison.
    let mut b = s.clone();
    b.minor = 12;
    m.ask_b(b);
    let q = m.embed_link();
    assert!(
        q.contains("b=1") && q.contains("b.k=1.12") && q.contains(",compare"),
        "{q}"
    );
    // A page opened on one view, with one slider, gives an embed of that view and slider.
    m.view.display.views = vec!["timeline".into()];
    m.view.display.controls = vec!["pod-eviction-timeout".into()];
    let q = m.embed_link();
    assert!(
        q.contains("view=timeline&") && q.contains("controls=pod-eviction-timeout"),
        "{q}"
    );
    let d = crate::link::decode(&q);
    assert!(
        d.display.embed && !d.display.shows_results() && d.notices.is_empty(),
        "{q}"
    );
    // The cards and the time controls each come when asked for, and only then.
    let shown = |q: &str| {
        let d = crate::link::decode(q).display;
        (d.shows_cards(), d.shows_playback())
    };
    assert_eq!(shown("embed=1&view=timeline,milestones"), (true, false));
    assert_eq!(shown("embed=1&view=timeline&controls=playback"), (false, true));
    assert_eq!(shown("embed=1"), (true, true));
}

/// "open in kubelife" from a one-view embed opens the full playground on the same state: the
/// settings, side B, playhead, language and targets stay; what only an embed reads goes.
#[test]
fn an_embeds_open_link_opens_the_full_page_on_the_same_state() {
    let mut s = Settings::default();
    s.set("node-monitor-grace-period", 20.0);
    let mut m = simulate(s.clone());
    m.view.t = 90_000;
    m.view.display = crate::link::decode(
        "embed=1&view=timeline&controls=playback,pod-eviction-timeout&lang=zh&target=firstReplacementReady:60s:p95",
    )
    .display;
    let mut b = s.clone();
    b.minor = 31;
    m.ask_b(b.clone());
    let q = m.open_link();
    let d = crate::link::decode(&q);
    assert!(d.notices.is_empty(), "{q}: {:?}", d.notices);
    assert!(
        !d.display.embed && d.display.views.is_empty() && d.display.controls.is_empty(),
        "{q}"
    );
    assert!(
        !q.contains("embed=") && !q.contains("view=") && !q.contains("controls="),
        "{q}"
    );
    assert_eq!((d.settings, d.b), (s, Some(b)), "{q}");
    assert_eq!(d.playback.t, 90_000);
    assert_eq!(d.display.lang, Some(Lang::Zh));
    assert_eq!(d.display.question, m.view.display.question, "{q}");
    assert!(
        d.display.shows_cards() && d.display.shows_playback(),
        "the whole page shows"
    );
}

/// The preset picker names the preset chosen while its settings are unchanged: after the
/// picker's choice (or a link's `preset=`), through an edit of what the preset keeps of the page
/// (the seed), until an edit of its own settings.
#[test]
fn a_chosen_preset_stays_named_while_its_settings_are_unchanged() {
    let mut m = simulate(Settings::default());
    assert_eq!(m.view.preset, None);
    assert!(m.edit(Edit::Preset("upstream-1.31".into())));
    assert_eq!(m.view.preset, Some("upstream-1.31"));
    assert!(
        !m.edit(Edit::Preset("upstream-1.31".into())),
        "chosen again: nothing changes"
    );
    assert!(m.edit(Edit::Number(Field::Seed, 7)));
    assert_eq!(m.view.preset, Some("upstream-1.31"), "a preset keeps the page's seed");
    assert!(m.edit(Edit::Knob("node-monitor-grace-period", 20.0)));
    assert_eq!(m.view.preset, None, "its settings changed");
    assert!(m.edit(Edit::Reset("node-monitor-grace-period")));
    assert_eq!(m.view.preset, None, "named again only when chosen again");
    assert!(!m.edit(Edit::Preset("no-such-preset".into())));
    assert_eq!(m.view.preset, None);
    assert!(m.edit(Edit::Preset("scale-1000-zone-b-outage".into())));
    assert_eq!(m.view.preset, Some("scale-1000-zone-b-outage"));
    assert!(m.edit(Edit::Version(30)));
    assert_eq!(m.view.preset, None, "another version");
}
