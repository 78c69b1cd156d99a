//! Function-like macro invocations in the same-length parse view.
//!
//! The C++ text is a slice of fmt's `include/fmt/format.h` at
//! ece4b4b33a96db77beccca3957505e689cbc4279 (SWE-bench Multilingual
//! fmtlib__fmt-2317, lines 190-196 and 1539-1556; fmt is MIT-licensed),
//! where `FMT_ENABLE_IF(…)` (defined in `core.h` as
//! `fmt::enable_if_t<(__VA_ARGS__), int> = 0`) left the targets inside
//! ERROR nodes.

use codethread_lang::{macro_call_spans, mask_macros, parse, tolerant, CallClass, Lang};

const FMT_SLICE: &str = r#"FMT_CONSTEXPR20 inline int clz(uint32_t x) {
  FMT_ASSERT(x != 0, "");
  // which the callers guarantee to not happen.
  FMT_MSC_WARNING(suppress : 6102)
  return 31 ^ static_cast<int>(r);
}
template <typename Char, typename OutputIt, typename T,
          FMT_ENABLE_IF(is_integral<T>::value &&
                        !std::is_same<T, bool>::value &&
                        std::is_same<OutputIt, buffer_appender<Char>>::value)>
FMT_CONSTEXPR OutputIt write(OutputIt out, T value,
                             const basic_format_specs<Char>& specs,
                             locale_ref loc) {
  return write_int(out, make_write_int_arg(value, specs.sign), specs, loc);
}
// An inlined version of write used in format string compilation.
template <typename Char, typename OutputIt, typename T,
          FMT_ENABLE_IF(is_integral<T>::value &&
                        !std::is_same<T, bool>::value &&
                        !std::is_same<OutputIt, buffer_appender<Char>>::value)>
FMT_CONSTEXPR FMT_INLINE OutputIt write(OutputIt out, T value,
                                        const basic_format_specs<Char>& specs,
                                        locale_ref loc) {
  return write_int(out, make_write_int_arg(value, specs.sign), specs, loc);
}
"#;

#[test]
fn enable_if_and_statement_macros_parse_without_errors() {
    let src = FMT_SLICE.as_bytes();
    let plain = parse(Lang::Cpp, src.to_vec()).expect("parse");
    assert!(plain.parse_errors > 0, "the slice has errors unmasked");
    let view = mask_macros(Lang::Cpp, src).expect("masked");
    assert_eq!(view.len(), src.len(), "same length");
    let rows = |b: &[u8]| b.iter().filter(|&&c| c == b'\n').count();
    assert_eq!(rows(&view), rows(src), "line breaks kept");
    let f = tolerant(plain);
    assert_eq!(f.parse_errors, 0, "{}", String::from_utf8_lossy(&view));
    assert_eq!(f.source, src, "original bytes kept");
    let calls = macro_call_spans(Lang::Cpp, src);
    let classes: Vec<CallClass> = calls.iter().map(|c| c.2).collect();
    assert_eq!(
        classes,
        [
            CallClass::Blank,
            CallClass::TemplateParam,
            CallClass::TemplateParam
        ]
    );
    let functions = {
        let mut n = 0;
        let mut stack = vec![f.root()];
        let mut c = f.tree.walk();
        while let Some(node) = stack.pop() {
            n += usize::from(node.kind() == "function_definition");
            stack.extend(node.children(&mut c));
        }
        n
    };
    assert_eq!(functions, 3);
}

#[test]
fn defined_macros_take_the_class_of_their_expansion() {
    let src = b"#define MY_REQ(...) std::enable_if_t<(__VA_ARGS__), int> = 0\n\
#define MY_ATTR(x) __attribute__((x))\n\
#define MY_CALL(x) f(x)\n\
template <typename T, MY_REQ(sizeof(T) > 1)> int g(T) { return MY_CALL(1); }\n";
    let calls = macro_call_spans(Lang::Cpp, src);
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0].2, CallClass::TemplateParam);
    // `MY_CALL(1)` is an expression: not rewritten.
    let view = mask_macros(Lang::Cpp, src).expect("masked");
    assert!(String::from_utf8_lossy(&view).contains("int=0"));
    assert!(String::from_utf8_lossy(&view).contains("MY_CALL(1)"));
}

/// fmt-2317 base, `include/fmt/format.h` lines 349-359: an attribute under
/// `#if` between a template header and the declaration.
#[test]
fn conditional_attribute_after_template_header_is_blanked() {
    let src = br#"template <typename Container, FMT_ENABLE_IF(is_contiguous<Container>::value)>
#if FMT_CLANG_VERSION >= 307 && !FMT_ICC_VERSION
__attribute__((no_sanitize("undefined")))
#endif
inline checked_ptr<typename Container::value_type>
reserve(std::back_insert_iterator<Container> it, size_t n) {
  Container& c = get_container(it);
  size_t size = c.size();
  c.resize(size + n);
  return make_checked(get_data(c) + size, n);
}
"#;
    let plain = parse(Lang::Cpp, src.to_vec()).expect("parse");
    assert!(plain.parse_errors > 0);
    let f = tolerant(plain);
    assert_eq!(f.parse_errors, 0);
    assert_eq!(f.source, src.to_vec());
}

/// fmt-2317 base, `include/fmt/format.h` lines 1775-1782 (the target
/// `write#7`, body shortened): a parameter's braced default `= {}`, which
/// tree-sitter's C++ grammar leaves with a MISSING node.
#[test]
fn braced_default_argument_parses_in_the_view() {
    let src = br#"template <typename Char, typename OutputIt, typename T,
          FMT_ENABLE_IF(std::is_floating_point<T>::value)>
OutputIt write(OutputIt out, T value, basic_format_specs<Char> specs,
               locale_ref loc = {}) {
  if (const_check(!is_supported_floating_point(value))) return out;
  return out;
}
void g(int x = {}) { int y = {}; f(y); }
"#;
    let plain = parse(Lang::Cpp, src.to_vec()).expect("parse");
    assert!(plain.parse_errors > 0);
    let view = mask_macros(Lang::Cpp, src).expect("masked");
    assert_eq!(view.len(), src.len());
    let text = String::from_utf8_lossy(&view);
    assert!(text.contains("loc = 0 )"), "{text}");
    assert!(text.contains("int x = 0 )"), "{text}");
    // A braced initializer in a body is left alone.
    assert!(text.contains("int y = {};"), "{text}");
    let f = tolerant(plain);
    assert_eq!(f.parse_errors, 0, "{text}");
    assert_eq!(f.source, src.to_vec());
}

/// `py/modthread.c` of micropython/micropython at
/// c0d4c604e6a140c0f2967e1b43fd94d0b029c73f (SWE-bench Multilingual
/// micropython__micropython-12158, lines 117-133; MIT), bytes unchanged:
/// `STATIC MP_DEFINE_CONST_OBJ_TYPE(…);` (defined in `py/obj.h`, not here)
/// expands to a definition; unmasked, tree-sitter-c loses the function
/// after it, and with `STATIC` alone masked it read the call as a K&R
/// declarator whose body is the next function's, so the gold patch's
/// `mod_thread_get_ident` was named `MP_DEFINE_CONST_OBJ_TYPE`.
const MICROPYTHON_SLICE: &str = r#"STATIC MP_DEFINE_CONST_DICT(thread_lock_locals_dict, thread_lock_locals_dict_table);

STATIC MP_DEFINE_CONST_OBJ_TYPE(
    mp_type_thread_lock,
    MP_QSTR_lock,
    MP_TYPE_FLAG_NONE,
    locals_dict, &thread_lock_locals_dict
    );

/****************************************************************/
// _thread module

STATIC size_t thread_stack_size = 0;

STATIC mp_obj_t mod_thread_get_ident(void) {
    return mp_obj_new_int_from_uint((uintptr_t)mp_thread_get_state());
}
"#;

#[test]
fn file_scope_macro_statements_are_blanked_not_read_as_functions() {
    let src = MICROPYTHON_SLICE.as_bytes();
    let names = |f: &codethread_lang::ParsedFile| -> Vec<String> {
        codethread_lang::index_functions(f)
            .into_iter()
            .map(|f| f.qualname)
            .collect()
    };
    let plain = parse(Lang::C, src.to_vec()).expect("parse");
    assert!(plain.parse_errors > 0);
    assert!(!names(&plain).contains(&"mod_thread_get_ident".to_string()));
    let calls = macro_call_spans(Lang::C, src);
    let blanked: Vec<&str> = calls
        .iter()
        .map(|&(s, e, _)| std::str::from_utf8(&src[s..e]).expect("ASCII slice"))
        .collect();
    // Each whole statement, with `STATIC` and the `;`.
    assert!(
        blanked
            .iter()
            .any(|b| b.starts_with("STATIC MP_DEFINE_CONST_OBJ_TYPE(") && b.ends_with(");")),
        "{blanked:?}"
    );
    assert!(
        blanked
            .iter()
            .any(|b| b.starts_with("STATIC MP_DEFINE_CONST_DICT(") && b.ends_with(");")),
        "{blanked:?}"
    );
    let f = tolerant(plain);
    assert_eq!(names(&f), ["mod_thread_get_ident"]);
    assert_eq!(f.source, src, "original bytes kept");
}

#[test]
fn macro_statements_inside_bodies_and_indented_are_kept() {
    // Indented (a body's statement) or after a token on its line: kept.
    let src = b"int f(void) {\n    MP_THREAD_GIL_EXIT(x);\n    return 0;\n}\nint y = 1; MY_DECLARE_THING(z);\n";
    let calls = macro_call_spans(Lang::C, src);
    assert!(calls.is_empty(), "{calls:?}");
}
