//! Entry point of the files worker: it reads a cluster's files (import) and writes its
//! configuration (export) for the page, so that the YAML parser and serializer are in neither the
//! page's wasm nor the engine's (see `kubelife::worker`).

use gloo_worker::Registrable;
use kubelife::worker::FilesWorker;

fn main() {
    FilesWorker::registrar().register();
}
