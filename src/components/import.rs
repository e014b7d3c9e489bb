//! "Bring your own cluster": files pasted or dropped into the page, read by the engine's import
//! (the same as `kubelife import`) in the files worker (`worker_line`), so the YAML parser is
//! not in the page's wasm, and applied to the settings as soon as they are read, with the engine's
//! report and a line for everything the page cannot show.

use crate::hooks::use_catalogue_part;
use crate::i18n::{cause, tr, trf, Lang, Part};
use crate::jobs::{FilesAnswer, FilesJob, Shared};
use crate::model::Edit;
use crate::settings::Settings;
use kubelife_engine::import::limits::MAX_FILE_BYTES;
use kubelife_engine::import::shown::escape;
use kubelife_engine::import::EntryKind;
use kubelife_engine::wire::decode_messages;
use kubelife_engine::Cause;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{DragEvent, FileList, HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

/// Properties of [`ImportPanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct ImportProps {
    /// The current settings, which an import applies to.
    pub settings: Settings,
    /// Called with the settings an import gives whenever the list of files changes.
    pub onedit: Callback<Edit>,
}

/// One file added: its name, its contents (or, for a file over the import's size limit, its size
/// in bytes if known: it is never read), and its lines, counted once.
#[derive(Debug, Clone, PartialEq)]
struct Added {
    name: String,
    contents: Result<Rc<[u8]>, Option<u64>>,
    lines: usize,
}

impl Added {
    /// A file read whole.
    fn read(name: String, bytes: Vec<u8>) -> Added {
        let newlines = newlines(&bytes);
        Added::counted(name, bytes, newlines)
    }

    /// A file read whole, whose `newlines` were counted as it was read.
    fn counted(name: String, bytes: Vec<u8>, newlines: usize) -> Added {
        if bytes.len() > MAX_FILE_BYTES {
            return Added::too_large(name, Some(bytes.len() as u64));
        }
        let lines = newlines + usize::from(bytes.last().is_some_and(|&b| b != b'\n'));
        Added {
            name,
            contents: Ok(Rc::from(bytes)),
            lines,
        }
    }

    /// A file over the size limit, left unread.
    fn too_large(name: String, size: Option<u64>) -> Added {
        Added {
            name,
            contents: Err(size),
            lines: 0,
        }
    }
}

/// The files added so far, in order (a later file's value replaces an earlier one's).
#[derive(Debug, Clone, Default, PartialEq)]
struct Files(Vec<Added>);

/// A change to the list of files.
enum FilesAction {
    /// Files added, appended in order.
    Add(Vec<Added>),
    /// The file at this position removed.
    Remove(usize),
}

impl Reducible for Files {
    type Action = FilesAction;

    fn reduce(self: Rc<Self>, action: FilesAction) -> Rc<Self> {
        let mut files = self.0.clone();
        match action {
            FilesAction::Add(new) => files.extend(new),
            FilesAction::Remove(i) if i < files.len() => {
                files.remove(i);
            }
            FilesAction::Remove(_) => return self,
        }
        Rc::new(Files(files))
    }
}

/// What the files gave: the settings, the engine's report and the page's own lines.
#[derive(PartialEq)]
struct Imported {
    settings: Rc<Settings>,
    report: Vec<(EntryKind, Cause)>,
    page: Vec<Cause>,
}

impl Imported {
    /// Reads the worker's answer to an import.
    fn read(answer: FilesAnswer) -> Result<Imported, String> {
        let FilesAnswer::Imported { settings, report, page } = answer else {
            return Err("the files worker answered an import with something else".to_string());
        };
        let kind = |t: u8| EntryKind::ALL.get(usize::from(t)).copied().unwrap_or(EntryKind::Note);
        Ok(Imported {
            settings: Rc::from(settings),
            report: decode_messages(&report.0)?
                .into_iter()
                .map(|(t, c)| (kind(t), c))
                .collect(),
            page: decode_messages(&page.0)?.into_iter().map(|(_, c)| c).collect(),
        })
    }
}

/// Has the files worker read `files` and apply them to `base`; `then` gets what they gave. A file
/// over the size limit goes as its name and size, for the report to say so.
fn read(files: &Files, base: &Settings, then: impl FnOnce(Imported) + 'static) {
    let readable = files
        .0
        .iter()
        .filter_map(|f| f.contents.as_ref().ok().map(|b| (f.name.clone(), Shared(b.clone()))));
    let too_large = files
        .0
        .iter()
        .filter_map(|f| f.contents.as_ref().err().map(|&size| (f.name.clone(), size)));
    let job = FilesJob::Import {
        files: readable.collect(),
        too_large: too_large.collect(),
        base: Box::new(base.clone()),
    };
    crate::worker_line::send(job, move |answer| match Imported::read(answer) {
        Ok(i) => then(i),
        Err(why) => web_sys::console::error_1(&format!("kubelife could not read an import: {why}").into()),
    });
}

/// A name for pasted text: the one typed, else `pasted-<n>.yaml`.
fn pasted_name(typed: &str, files: &Files) -> String {
    let typed = typed.trim();
    if typed.is_empty() {
        // Dropped files keep their own names: only pasted texts count.
        let pasted = files.0.iter().filter(|f| f.name.starts_with("pasted-")).count();
        format!("pasted-{}.yaml", pasted + 1)
    } else {
        typed.to_string()
    }
}

/// Reads every file of a list (dropped or chosen), then adds them together. A file over the size
/// limit is never read: its size is looked at first.
fn read_files(list: Option<FileList>, add: UseReducerDispatcher<Files>) {
    let Some(list) = list else { return };
    let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.item(i)).collect();
    wasm_bindgen_futures::spawn_local(async move {
        let mut read = Vec::new();
        for f in files {
            if f.size() > MAX_FILE_BYTES as f64 {
                read.push(Added::too_large(f.name(), Some(f.size() as u64)));
            } else if let Ok(buffer) = wasm_bindgen_futures::JsFuture::from(f.array_buffer()).await {
                read.push(read_in_tasks(f.name(), &js_sys::Uint8Array::new(&buffer)).await);
            }
        }
        if !read.is_empty() {
            add.dispatch(FilesAction::Add(read));
        }
    });
}

/// How many newline bytes `bytes` holds.
fn newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// How much of a dropped or chosen file is copied into the page and its lines counted per task,
/// bytes: a 30 MB node list is read in tasks of a few ms rather than one of about 70 ms.
const READ_PER_TASK: u32 = 2 << 20;

/// The file `name` whose contents are `all`, copied into the page [`READ_PER_TASK`] bytes a task.
async fn read_in_tasks(name: String, all: &js_sys::Uint8Array) -> Added {
    let len = all.length();
    let mut bytes = vec![0u8; len as usize];
    let (mut at, mut count) = (0, 0);
    while at < len {
        let end = len.min(at + READ_PER_TASK);
        let part = &mut bytes[at as usize..end as usize];
        all.subarray(at, end).copy_to(part);
        count += newlines(part);
        at = end;
        if at < len {
            next_task().await;
        }
    }
    Added::counted(name, bytes, count)
}

/// Resolves in a task of its own (a timer of 0 ms), so that the page can draw and answer input
/// in between.
async fn next_task() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback(&resolve);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// The pasted text as a file; over the size limit (its length is looked at before the text is
/// copied), a file left unread.
fn pasted(t: &HtmlTextAreaElement, name: String) -> Added {
    if t.text_length() as usize > MAX_FILE_BYTES {
        return Added::too_large(name, None);
    }
    Added::read(name, t.value().into_bytes())
}

/// The panel.
#[function_component(ImportPanel)]
pub fn import_panel(p: &ImportProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let files = use_reducer(Files::default);
    let text = use_node_ref();
    let name = use_node_ref();
    let imported = use_state(|| None::<Rc<Imported>>);
    // The report's texts come in their own part of the catalogue, fetched with the first import.
    let texts = use_catalogue_part(lang, Part::Import, imported.is_some());
    // The validation's messages (`scenario.*`) are among the texts fetched once the page is live.
    let texts = use_catalogue_part(lang, Part::Later, imported.is_some()) && texts;
    // The settings an import applies to: the newest, though only a change of files re-imports.
    let base = use_mut_ref(Settings::default);
    *base.borrow_mut() = p.settings.clone();
    {
        let (imported, onedit) = (imported.setter(), p.onedit.clone());
        use_effect_with((*files).clone(), move |files| {
            if files.0.is_empty() {
                imported.set(None);
                return;
            }
            // Files all over the size limit change nothing: only the report says so.
            let any_read = files.0.iter().any(|f| f.contents.is_ok());
            read(files, &base.borrow(), move |i| {
                if any_read {
                    onedit.emit(Edit::Import(i.settings.clone()));
                }
                imported.set(Some(Rc::new(i)));
            });
        });
    }
    let onapply = {
        let (text, name, files) = (text.clone(), name.clone(), files.clone());
        Callback::from(move |_: MouseEvent| {
            let (Some(t), Some(n)) = (text.cast::<HtmlTextAreaElement>(), name.cast::<HtmlInputElement>()) else {
                return;
            };
            if t.text_length() == 0 || t.value().trim().is_empty() {
                return;
            }
            files.dispatch(FilesAction::Add(vec![pasted(&t, pasted_name(&n.value(), &files))]));
            t.set_value("");
            n.set_value("");
        })
    };
    let ondrop = {
        let add = files.dispatcher();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            read_files(e.data_transfer().and_then(|d| d.files()), add.clone());
        })
    };
    let ondragover = Callback::from(|e: DragEvent| e.prevent_default());
    let onchange = {
        let add = files.dispatcher();
        Callback::from(move |e: Event| {
            let input = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok());
            read_files(input.as_ref().and_then(HtmlInputElement::files), add.clone());
            if let Some(i) = input {
                i.set_value("");
            }
        })
    };
    html! {
        <div class="import" data-testid="import-panel">
            <p class="import-help">
                {tr(lang, "ui.import.help")}{" "}
                // Commands stay as kubectl spells them, in every language.
                <code>{"kubectl get nodes -o json"}</code>{", "}<code>{"kubectl get deploy,sts,ds -A -o json"}</code>{". "}
                {tr(lang, "ui.import.combine")}
            </p>
            <label class="import-label">{tr(lang, "ui.import.text")}
                <textarea class="import-text" ref={text} rows="6" spellcheck="false" data-testid="import-text"
                    placeholder="apiVersion: kubeadm.k8s.io/v1beta4" />
            </label>
            <div class="import-row">
                <label class="import-label">{tr(lang, "ui.import.name")}
                    <input class="import-name" ref={name} placeholder={pasted_name("", &files)} data-testid="import-name" />
                </label>
                <button class="import-apply" onclick={onapply} data-testid="import-apply">{tr(lang, "ui.import.apply")}</button>
            </div>
            <div class="import-drop" {ondrop} {ondragover}>
                <label class="import-label">{tr(lang, "ui.import.drop")}
                    <input type="file" multiple=true class="import-file" {onchange} data-testid="import-file" />
                </label>
            </div>
            { file_list(lang, &files) }
            if let Some(i) = (*imported).as_deref().filter(|_| texts && !files.0.is_empty()) { { report(lang, i) } }
        </div>
    }
}

/// The files added so far, each with a remove button.
fn file_list(lang: Lang, files: &UseReducerHandle<Files>) -> Html {
    if files.0.is_empty() {
        return html! {};
    }
    html! {
        <ul class="import-files" aria-label={tr(lang, "ui.import.files")}>
        { for files.0.iter().enumerate().map(|(i, f)| {
            let remove = {
                let files = files.dispatcher();
                Callback::from(move |_: MouseEvent| files.dispatch(FilesAction::Remove(i)))
            };
            // A file's name is the reader's text: no control character or direction override
            // reaches the page as it is.
            let name = escape(&f.name);
            let size = match f.contents {
                Ok(_) => trf(lang, "ui.import.lines", &[("lines", &f.lines)]),
                Err(_) => tr(lang, "ui.import.not_read").to_string(),
            };
            html! {
                <li class="import-file-item">
                    <code>{name.to_string()}</code>{" "}
                    <span class="import-size">{size}</span>
                    <button class="import-remove" onclick={remove} aria-label={trf(lang, "ui.import.remove", &[("file", &name)])}>
                        {tr(lang, "ui.import.remove_short")}
                    </button>
                </li>
            }
        }) }
        </ul>
    }
}

/// What the page cannot show first, then the engine's report, one line per entry with its kind.
fn report(lang: Lang, i: &Imported) -> Html {
    let line = |kind: &'static str, modifier: &str, c: &Cause| {
        html! {
            <li class={format!("import-entry import-entry-{modifier}")}>
                <strong class="import-kind">{tr(lang, kind)}</strong>{" "}{cause(lang, c)}
            </li>
        }
    };
    let modifier = |k: EntryKind| match k {
        EntryKind::Recognised => "recognised",
        EntryKind::Overridden | EntryKind::Note => "note",
        EntryKind::Ignored => "ignored",
        EntryKind::Invalid | EntryKind::Warning | EntryKind::Unreadable => "invalid",
    };
    html! {
        // A region that scrolls takes Tab, so the keyboard can scroll it too.
        <div class="import-report" data-testid="import-report" tabindex="0" role="region" aria-label={tr(lang, "ui.import.report")}>
            <ul class="import-entries">
                { for i.page.iter().map(|c| line("ui.import.kind.page", "page", c)) }
                { for i.report.iter().map(|(kind, c)| line(kind.key(), modifier(*kind), c)) }
            </ul>
        </div>
    }
}
