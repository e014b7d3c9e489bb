//! The first view (`src/first_view.html`) is what the page's components render now, natively with
//! Yew's server renderer, for the plain address in English. `UPDATE_EXPECT=1 cargo test -p
//! kubelife --test first_view` writes it again.
#![cfg(not(target_arch = "wasm32"))]

use kubelife::app::App;
use kubelife::first_view::wrap;

/// The page as a reader of the plain address first sees it.
fn render() -> String {
    let renderer = yew::LocalServerRenderer::<App>::new().hydratable(false);
    wrap(&futures::executor::block_on(renderer.render()))
}

#[test]
fn first_view_is_what_the_page_renders_now() {
    let now = render();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/first_view.html");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(path, &now).expect("writes");
        return;
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == now,
        "src/first_view.html is stale: the default page renders differently now; \
         run `UPDATE_EXPECT=1 cargo test -p kubelife --test first_view` to write it again"
    );
}

#[test]
fn first_view_shows_the_default_runs_milestones_without_test_ids() {
    let html = render();
    assert!(html.starts_with("<div id=\"first-view\""), "{}", &html[..80]);
    assert!(html.contains("data-tour=\"milestone-eviction\""));
    assert!(html.contains("5m49.6s"), "the default crash's first eviction");
    assert!(!html.contains("data-testid"));
}
