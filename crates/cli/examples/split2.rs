fn main() {
    let path = std::env::args().nth(1).unwrap();
    let json = std::fs::read_to_string(path).unwrap();
    let cfg = kubelife_engine::Scenario::from_json(&json).unwrap().resolve().unwrap();
    for _ in 0..30 {
        let mut sim = kubelife_engine::sim::Simulation::new(cfg.clone(), false);
        sim.run();
        std::hint::black_box(&sim);
    }
}
