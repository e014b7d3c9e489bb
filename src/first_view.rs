//! The default page's first view, rendered ahead of time: the page's own components, with the
//! run made ahead (`first_run`), as HTML. `index.html` carries it (Trunk inlines
//! `first_view.html`), so a reader of the plain address sees the default scenario's results as
//! soon as the HTML and the CSS are in, before the page's wasm is even fetched.
//!
//! The first view is inert: nothing in it can be focused, clicked or typed into, so nothing a
//! reader does is lost when the page takes over. Once the page's wasm has drawn its first
//! render, [`crate::hooks::use_first_view_removed`] removes it. A script in `index.html` hides it
//! before it shows on any other page: an address with a query, or a reader whose browser
//! prefers Chinese (the same choice as `browser::preferred_lang`).
//!
//! It carries no `data-testid`, so the tests that use the page wait for the live one. A native
//! test (`tests/first_view.rs`) checks the file is what the components render now;
//! `UPDATE_EXPECT=1 cargo test -p kubelife --test first_view` writes it again.

/// The element id of the first view.
pub const ID: &str = "first-view";

/// The first view's wrapper: inert, busy until the page takes over, and laid out as if it were
/// not there (`.first-view` in the stylesheet).
const OPEN: &str = r#"<div id="first-view" class="first-view" inert aria-busy="true">"#;

/// `html` (the page's server-rendered markup) as the first view: test ids taken out, in an
/// inert wrapper.
pub fn wrap(html: &str) -> String {
    format!("{OPEN}{}</div>\n", without_test_ids(html))
}

/// `html` without its `data-testid="…"` attributes.
fn without_test_ids(html: &str) -> String {
    const ATTR: &str = " data-testid=\"";
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find(ATTR) {
        out.push_str(&rest[..i]);
        let after = &rest[i + ATTR.len()..];
        rest = after.find('"').map_or("", |end| &after[end + 1..]);
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wrapper_has_the_id_the_page_removes() {
        assert!(wrap("").starts_with(&format!("<div id=\"{ID}\"")));
    }

    #[test]
    fn test_ids_are_taken_out_whole() {
        assert_eq!(
            without_test_ids(r#"<b data-testid="x" title="y">z</b>"#),
            r#"<b title="y">z</b>"#
        );
        assert_eq!(without_test_ids("<i>plain</i>"), "<i>plain</i>");
        assert_eq!(without_test_ids(r#"<b data-testid="unclosed"#), "<b");
    }
}
