//! The playground's components. Each draws part of the model; none simulates. Each owns the CSS
//! classes that start with its module's name (`workshop-mark` is the workshop's), styled in
//! `www/css/<module>.css`; see ARCHITECTURE.md.

pub mod aggregate;
pub mod breakdown;
pub mod cloud;
pub mod cluster;
pub mod compare;
pub mod controls;
pub mod copy;
pub mod cost;
pub mod download;
pub mod events;
pub mod export;
pub mod faults;
pub mod grid;
pub mod header;
pub mod import;
pub mod layout;
pub mod notices;
pub mod number;
pub mod picker;
pub mod pixels;
pub mod results;
pub mod running;
pub mod seeds;
pub mod share;
pub mod slider;
pub mod slo;
pub mod spread;
pub mod strip;
pub mod timeline;
pub mod tour;
pub mod tune;
pub mod warnings;
pub mod workshop;

use std::rc::Rc;
use yew::Callback;

/// A value the page resolved once and its components share, such as a configuration: two are
/// equal when they are the same one. Comparing a component's props then costs a pointer
/// comparison, not a walk over a configuration (and the page's wasm carries no code for that
/// walk); a component whose props hold one also holds the settings it was resolved from.
#[derive(Debug)]
pub struct Same<T>(pub Rc<T>);

impl<T> Clone for Same<T> {
    fn clone(&self) -> Self {
        Same(self.0.clone())
    }
}

impl<T> PartialEq for Same<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> std::ops::Deref for Same<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// A callback that passes on `f` of its value to `to`, when `f` gives one (a field that does not
/// parse changes nothing).
pub fn filtered<T: 'static, U: 'static>(to: &Callback<U>, f: impl Fn(T) -> Option<U> + 'static) -> Callback<T> {
    let to = to.clone();
    Callback::from(move |v| {
        if let Some(u) = f(v) {
            to.emit(u);
        }
    })
}
