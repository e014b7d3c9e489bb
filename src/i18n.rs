//! The page's catalogues: the core's (`kubelife_playground::i18n`: English built in), and in the
//! browser a fetched catalogue: English's read with the browser's own JSON parser, so that the
//! page's wasm carries no JSON parser, Chinese's packed (`unpack_chinese`).

pub use kubelife_playground::i18n::*;

/// Takes in `lang`'s `part` from its text: Chinese packed ([`unpack_chinese`]), English's JSON
/// read by the browser's `JSON.parse`; a text that is not a catalogue is refused with the reason,
/// and the language keeps falling back to English. English's own part is built in, so its text is
/// only checked; a part already taken in stays.
#[cfg(target_arch = "wasm32")]
pub fn install(lang: Lang, part: Part, text: &str) -> Result<(), String> {
    let catalogue = match lang {
        Lang::Zh => unpack_chinese(text)?,
        Lang::En => parse(text)?,
    };
    install_parsed(lang, part, catalogue);
    Ok(())
}

/// Reads a catalogue, one JSON object of key to template, with the browser's `JSON.parse`.
#[cfg(target_arch = "wasm32")]
fn parse(text: &str) -> Result<std::collections::BTreeMap<String, String>, String> {
    use wasm_bindgen::JsCast;
    let value = js_sys::JSON::parse(text).map_err(|_| "not JSON".to_string())?;
    if !value.is_object() || js_sys::Array::is_array(&value) {
        return Err("not a JSON object".into());
    }
    let mut out = std::collections::BTreeMap::new();
    for entry in js_sys::Object::entries(value.unchecked_ref()).iter() {
        let pair: js_sys::Array = entry.unchecked_into();
        let key = pair.get(0).as_string().unwrap_or_default();
        let Some(template) = pair.get(1).as_string() else {
            return Err(format!("{key}: not a string"));
        };
        out.insert(key, template);
    }
    Ok(out)
}
