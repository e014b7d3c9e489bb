//! A change of one control costs one resolve of the settings, from the reducer to the run on the
//! page: the page resolves the changed settings once (`model::prepare_after`), the worker runs the
//! configuration it is sent, and the answer is laid out against the configuration already held.
//! Everything here runs on one thread, so a resolve in the worker's code would count too.

use kubelife::app::{reduce, Msg};
use kubelife::bridge::{landed_now, Arrived, Asked, Slot};
use kubelife::components::compare::CompareAction;
use kubelife::components::results::TransportAction;
use kubelife::jobs::engine::answer;
use kubelife::jobs::{EngineAnswer, EngineJob};
use kubelife::model::{simulate, Edit, Model, FRAME};
use kubelife::settings::{resolves, Settings};
use kubelife_engine::flags;
use std::rc::Rc;

/// One change: what the reducer is sent, which side it re-runs, and what the side then shows.
struct Case {
    name: &'static str,
    msg: fn() -> Msg,
    slot: Slot,
    shows: fn(&Model) -> bool,
}

/// The name of the flag of `--node-monitor-grace-period`'s catalogue entry, as sliders name it.
fn grace_flag() -> &'static str {
    flags::ALL
        .iter()
        .find(|f| f.name == "node-monitor-grace-period")
        .map(|f| f.name)
        .expect("the catalogue has --node-monitor-grace-period")
}

/// Sends `msg`, runs what the page then asks of the worker as the worker would, takes the answer
/// in, and returns the resolves that cost with the page after it.
fn step(m: Model, msg: Msg, slot: Slot) -> (u64, Model) {
    let before = resolves();
    let m = reduce(&m, msg).unwrap_or(m);
    let wants = m.wants();
    let asked = match slot {
        Slot::A => wants.a,
        _ => wants.b,
    };
    let asked = Asked {
        slot,
        a: asked.expect("the change asks for a run"),
        b: None,
    };
    let job = asked.job();
    assert!(
        matches!(&job, EngineJob::Run(cfg) if cfg.nodes == asked.a.cfg.nodes && cfg.controller_manager == asked.a.cfg.controller_manager),
        "the worker is sent the configuration the page resolved"
    );
    let EngineAnswer::Run(bytes) = answer(&job, &|| 0.0) else {
        panic!("a run")
    };
    let landed = landed_now(&asked, bytes.0).expect("the run reads");
    let m = reduce(&m, Msg::Arrived(Box::new(Arrived { asked, landed }))).unwrap_or(m);
    (resolves() - before, m)
}

fn check(case: &Case, m: Model) -> Model {
    let (count, m) = step(m, (case.msg)(), case.slot);
    assert_eq!(count, 1, "{}: resolves for one step", case.name);
    assert!((case.shows)(&m), "{}: the page shows the new run", case.name);
    m
}

#[test]
fn one_slider_step_resolves_its_settings_once() {
    let grace = grace_flag();
    let cases = [
        Case {
            name: "a slider of side A",
            msg: || Msg::Settings(Edit::Knob(grace_flag(), 20.0)),
            slot: Slot::A,
            shows: |m| m.settings.overrides.get(grace_flag()) == Some(&20.0) && m.pending.a.is_none(),
        },
        Case {
            name: "the next step of the same slider",
            msg: || Msg::Settings(Edit::Knob(grace_flag(), 21.0)),
            slot: Slot::A,
            shows: |m| m.settings.overrides.get(grace_flag()) == Some(&21.0),
        },
        Case {
            name: "back to the version's default",
            msg: || Msg::Settings(Edit::Reset(grace_flag())),
            slot: Slot::A,
            shows: |m| m.settings.overrides.is_empty(),
        },
        Case {
            name: "a slider of side B",
            msg: || Msg::Compare(CompareAction::EditB(Edit::Knob(grace_flag(), 30.0))),
            slot: Slot::B,
            shows: |m| {
                m.b.as_ref()
                    .is_some_and(|b| b.settings.overrides.get(grace_flag()) == Some(&30.0))
            },
        },
    ];
    let mut m = simulate(Settings::default());
    // Side B is open before its slider moves.
    let (_, opened) = step(m, Msg::Compare(CompareAction::Compare(true)), Slot::B);
    m = opened;
    assert!(m.b.is_some());
    for case in &cases {
        m = check(case, m);
    }
    assert_eq!(m.b.as_ref().unwrap().settings.overrides.get(grace), Some(&30.0));
}

/// Playback moves the playhead and nothing else: a tick shares both sides' runs with the page
/// before it and resolves nothing, and a paused page's tick changes nothing.
#[test]
fn a_playback_tick_shares_the_runs() {
    let m = simulate(Settings::default());
    let (_, m) = step(m, Msg::Compare(CompareAction::Compare(true)), Slot::B);
    assert!(reduce(&m, Msg::Tick(FRAME)).is_none(), "paused: nothing changes");
    let playing = reduce(&m, Msg::Transport(TransportAction::Toggle)).expect("plays");
    let before = resolves();
    let next = reduce(&playing, Msg::Tick(FRAME)).expect("the playhead moves");
    assert_eq!(resolves(), before, "a tick resolves nothing");
    assert!(next.view.t > playing.view.t && next.view.playing);
    assert!(Rc::ptr_eq(&next.run, &playing.run), "side A's run is shared");
    let (b, b_before) = (next.b.as_ref().expect("side B"), playing.b.as_ref().expect("side B"));
    assert!(Rc::ptr_eq(b, b_before), "side B's run is shared");
}
