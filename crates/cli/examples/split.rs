use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let json = std::fs::read_to_string(path).unwrap();
    for _ in 0..3 {
        let t0 = Instant::now();
        let cfg = kubelife_engine::Scenario::from_json(&json).unwrap().resolve().unwrap();
        let t1 = Instant::now();
        let mut sim = kubelife_engine::sim::Simulation::new(cfg.clone(), false);
        let t2 = Instant::now();
        sim.run();
        let t3 = Instant::now();
        drop(sim);
        let t4 = Instant::now();
        let out = kubelife_engine::run(&cfg, &Default::default());
        let t5 = Instant::now();
        let s = out.to_json();
        let t6 = Instant::now();
        println!(
            "parse {:?} new {:?} run {:?} drop {:?} | full run() {:?} json {:?} ({} bytes, {} events)",
            t1 - t0,
            t2 - t1,
            t3 - t2,
            t4 - t3,
            t5 - t4,
            t6 - t5,
            s.len(),
            out.events.len()
        );
    }
}
