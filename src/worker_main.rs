//! Entry point of the engine's Web Worker (see `kubelife::worker`).

use gloo_worker::Registrable;
use kubelife::worker::EngineWorker;

fn main() {
    EngineWorker::registrar().register();
}
