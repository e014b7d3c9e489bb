//! The workshop's exercises, in order: each one's start, solution, hints and checks.

use super::*;

/// The exercises, in workshop order; `?exercise=N` opens the N-th.
pub static EXERCISES: [Exercise; crate::link::EXERCISE_COUNT] = [
    Exercise {
        id: "why-5m50s",
        start: || (Settings::default(), None),
        solution: || {
            (
                default_with(|s| s.set(flags::DEFAULT_UNREACHABLE_TOLERATION_SECONDS.name, 30.0)),
                None,
            )
        },
        checks: &[
            Check {
                key: "ex.why-5m50s.check.1",
                holds: ex1_fast,
            },
            Check {
                key: "ex.why-5m50s.check.2",
                holds: ex1_one,
            },
            Check {
                key: "ex.why-5m50s.check.3",
                holds: ex1_grace,
            },
            Check {
                key: "ex.why-5m50s.check.4",
                holds: keeps_fault::<0>,
            },
        ],
        hints: 3,
    },
    Exercise {
        id: "fast-failover",
        start: || {
            (
                default_with(|s| {
                    s.ops.latency = Some(ex2_spike());
                    s.set(flags::NODE_STATUS_UPDATE_FREQUENCY.name, 2.0);
                    s.set(flags::NODE_MONITOR_GRACE_PERIOD.name, 8.0);
                    s.set(flags::DEFAULT_UNREACHABLE_TOLERATION_SECONDS.name, 10.0);
                }),
                None,
            )
        },
        solution: || {
            (
                default_with(|s| {
                    s.ops.latency = Some(ex2_spike());
                    s.set(flags::NODE_MONITOR_GRACE_PERIOD.name, 20.0);
                    s.set(flags::DEFAULT_UNREACHABLE_TOLERATION_SECONDS.name, 10.0);
                }),
                None,
            )
        },
        checks: &[
            Check {
                key: "ex.fast-failover.check.1",
                holds: ex2_fast,
            },
            Check {
                key: "ex.fast-failover.check.2",
                holds: ex2_no_false_unknown,
            },
            Check {
                key: "ex.fast-failover.check.3",
                holds: ex2_spike_kept,
            },
            Check {
                key: "ex.fast-failover.check.4",
                holds: keeps_fault::<1>,
            },
        ],
        hints: 3,
    },
    Exercise {
        id: "cost-of-speed",
        start: || {
            (
                default_with(|s| {
                    s.set(flags::NODE_LEASE_DURATION_SECONDS.name, 8.0);
                    s.set(flags::NODE_MONITOR_GRACE_PERIOD.name, 10.0);
                }),
                None,
            )
        },
        solution: || {
            (
                default_with(|s| {
                    s.set(flags::NODE_LEASE_DURATION_SECONDS.name, 24.0);
                    s.set(flags::NODE_MONITOR_GRACE_PERIOD.name, 24.0);
                    s.set(flags::NODE_MONITOR_PERIOD.name, 2.0);
                }),
                None,
            )
        },
        checks: &[
            Check {
                key: "ex.cost-of-speed.check.1",
                holds: ex3_detect,
            },
            Check {
                key: "ex.cost-of-speed.check.2",
                holds: ex3_writes,
            },
            Check {
                key: "ex.cost-of-speed.check.3",
                holds: ex3_no_flapping,
            },
            Check {
                key: "ex.cost-of-speed.check.4",
                holds: keeps_fault::<2>,
            },
        ],
        hints: 3,
    },
    Exercise {
        id: "stuck-statefulset",
        start: || (Settings::default(), None),
        solution: || (default_with(|s| s.ops.out_of_service_at_seconds = Some(120)), None),
        checks: &[
            Check {
                key: "ex.stuck-statefulset.check.1",
                holds: db0_ready_elsewhere,
            },
            Check {
                key: "ex.stuck-statefulset.check.2",
                holds: ex4_out_of_service,
            },
            Check {
                key: "ex.stuck-statefulset.check.3",
                holds: node_stays_down,
            },
            Check {
                key: "ex.stuck-statefulset.check.4",
                holds: keeps_fault::<3>,
            },
        ],
        hints: 3,
    },
    Exercise {
        id: "legacy-vs-taints",
        start: || {
            (
                Settings {
                    minor: 12,
                    ..fast_profile()
                },
                None,
            )
        },
        solution: || {
            (
                Settings {
                    minor: 12,
                    ..fast_profile()
                },
                Some(Settings {
                    minor: 32,
                    ..fast_profile()
                }),
            )
        },
        checks: &[
            Check {
                key: "ex.legacy-vs-taints.check.1",
                holds: ex5_versions,
            },
            Check {
                key: "ex.legacy-vs-taints.check.2",
                holds: ex5_same_profile,
            },
            Check {
                key: "ex.legacy-vs-taints.check.3",
                holds: ex5_apart,
            },
            Check {
                key: "ex.legacy-vs-taints.check.4",
                holds: keeps_fault::<4>,
            },
        ],
        hints: 3,
    },
    Exercise {
        id: "zone-outage",
        start: || (zone_outage(), None),
        solution: || {
            let mut s = zone_outage();
            s.set(flags::UNHEALTHY_ZONE_THRESHOLD.name, 0.65);
            (s, None)
        },
        checks: &[
            Check {
                key: "ex.zone-outage.check.1",
                holds: ex6_shape,
            },
            Check {
                key: "ex.zone-outage.check.2",
                holds: ex6_all_tainted,
            },
            Check {
                key: "ex.zone-outage.check.3",
                holds: ex6_healthy_untouched,
            },
            Check {
                key: "ex.zone-outage.check.4",
                holds: keeps_fault::<5>,
            },
        ],
        hints: 3,
    },
    Exercise {
        id: "lengthen-toleration",
        start: || {
            (
                default_with(|s| {
                    s.ops.toleration_patch = Some(TolerationPatch {
                        at_seconds: 200,
                        seconds: 3600,
                    })
                }),
                None,
            )
        },
        solution: || {
            (
                default_with(|s| {
                    s.ops.toleration_patch = Some(TolerationPatch {
                        at_seconds: 45,
                        seconds: 3600,
                    })
                }),
                None,
            )
        },
        checks: &[
            Check {
                key: "ex.lengthen-toleration.check.1",
                holds: ex7_patch,
            },
            Check {
                key: "ex.lengthen-toleration.check.2",
                holds: ex7_kept,
            },
            Check {
                key: "ex.lengthen-toleration.check.3",
                holds: no_flag_changed,
            },
            Check {
                key: "ex.lengthen-toleration.check.4",
                holds: keeps_fault::<6>,
            },
        ],
        hints: 3,
    },
    Exercise {
        id: "kcm-restart",
        start: || (Settings::default(), None),
        solution: || (default_with(|s| s.ops.kcm_restart_at_seconds = Some(300)), None),
        checks: &[
            Check {
                key: "ex.kcm-restart.check.1",
                holds: ex8_restart_after_taint,
            },
            Check {
                key: "ex.kcm-restart.check.2",
                holds: ex8_late,
            },
            Check {
                key: "ex.kcm-restart.check.3",
                holds: no_flag_changed,
            },
            Check {
                key: "ex.kcm-restart.check.4",
                holds: keeps_fault::<7>,
            },
        ],
        hints: 3,
    },
    Exercise {
        id: "twelve-minute-database",
        start: || (ex9_start(), None),
        solution: || {
            (
                default_with(|s| {
                    s.ops.force_delete_db_at_seconds = Some(390);
                    s.ops.out_of_service_at_seconds = Some(390);
                }),
                None,
            )
        },
        checks: &[
            Check {
                key: "ex.twelve-minute-database.check.1",
                holds: ex9_fast,
            },
            Check {
                key: "ex.twelve-minute-database.check.2",
                holds: ex9_no_wait,
            },
            Check {
                key: "ex.twelve-minute-database.check.3",
                holds: ex9_volume,
            },
            Check {
                key: "ex.twelve-minute-database.check.4",
                holds: node_stays_down,
            },
            Check {
                key: "ex.twelve-minute-database.check.5",
                holds: keeps_fault::<8>,
            },
        ],
        hints: 3,
    },
    Exercise {
        id: "shut-down-dont-crash",
        start: || (ex10_start(), None),
        solution: || {
            (
                default_with(|s| {
                    s.fault.kind = kubelife_engine::scenario::ActionKind::NodeShutdown;
                    s.set(flags::SHUTDOWN_GRACE_PERIOD.name, 30.0);
                    s.set(flags::SHUTDOWN_GRACE_PERIOD_CRITICAL_PODS.name, 10.0);
                }),
                None,
            )
        },
        checks: &[
            Check {
                key: "ex.shut-down-dont-crash.check.1",
                holds: ex10_no_blackhole,
            },
            Check {
                key: "ex.shut-down-dont-crash.check.2",
                holds: ex10_replaced,
            },
            Check {
                key: "ex.shut-down-dont-crash.check.3",
                holds: ex10_shutdown,
            },
            Check {
                key: "ex.shut-down-dont-crash.check.4",
                holds: keeps_fault::<9>,
            },
        ],
        hints: 3,
    },
    Exercise {
        id: "zone-outage-at-scale",
        start: || (ex11_start(), None),
        solution: || {
            let mut s = ex11_start();
            s.set(flags::NODE_EVICTION_RATE.name, 0.5);
            (s, None)
        },
        checks: &[
            Check {
                key: "ex.zone-outage-at-scale.check.1",
                holds: ex11_all_tainted,
            },
            Check {
                key: "ex.zone-outage-at-scale.check.2",
                holds: ex11_others_untouched,
            },
            Check {
                key: "ex.zone-outage-at-scale.check.3",
                holds: ex11_shape,
            },
            Check {
                key: "ex.zone-outage-at-scale.check.4",
                holds: keeps_fault::<10>,
            },
        ],
        hints: 3,
    },
    Exercise {
        id: "cloud-two-and-eight",
        start: || (ex12_start(), None),
        solution: || (ex12_preset().clone(), None),
        checks: &[
            Check {
                key: "ex.cloud-two-and-eight.check.1",
                holds: ex12_node_deleted,
            },
            Check {
                key: "ex.cloud-two-and-eight.check.2",
                holds: ex12_web_ready,
            },
            Check {
                key: "ex.cloud-two-and-eight.check.3",
                holds: ex12_db_waited,
            },
            Check {
                key: "ex.cloud-two-and-eight.check.4",
                holds: keeps_fault::<11>,
            },
        ],
        hints: 3,
    },
    Exercise {
        id: "blip-safe-failover",
        start: ex13_start,
        solution: ex13_solution,
        checks: &[
            Check {
                key: "ex.blip-safe-failover.check.1",
                holds: ex13_fast,
            },
            Check {
                key: "ex.blip-safe-failover.check.2",
                holds: ex13_rides_out,
            },
            Check {
                key: "ex.blip-safe-failover.check.3",
                holds: ex13_same_settings,
            },
            Check {
                key: "ex.blip-safe-failover.check.4",
                holds: keeps_fault::<12>,
            },
        ],
        hints: 3,
    },
];
