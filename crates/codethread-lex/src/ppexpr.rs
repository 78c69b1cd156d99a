//! Preprocessor conditions (`#if` expressions) evaluated in three values:
//! what a condition is when some macros are known to be undefined (C, where
//! `__cplusplus` is; a build without tests, where the `*TEST*` macros are),
//! whatever the others are.

fn is_word(b: u8) -> bool {
    b == b'_' || b.is_ascii_alphanumeric()
}

/// The truth of a `#if` condition when every macro `undefined` names is
/// undefined (and so 0 in an expression): `Some(true)` / `Some(false)` when
/// it holds or fails whatever the other macros are, `None` when it depends
/// on them. `defined X`, `defined(X)`, `!`, `&&`, `||`, parentheses,
/// comparisons and numbers are read; anything else is unknown. Iterative
/// (an explicit operator stack), so a condition nested deep cannot overflow
/// the stack.
pub fn eval(cond: &[u8], undefined: &dyn Fn(&[u8]) -> bool) -> Option<bool> {
    // Tokens.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    enum T {
        /// A three-valued truth.
        V(Option<bool>),
        /// A number, or the value of an undefined `__cplusplus` (0).
        N(Option<i128>),
        Not,
        And,
        Or,
        Open,
        Close,
        Cmp(u8),
    }
    let mut toks: Vec<T> = Vec::new();
    let mut i = 0;
    let n = cond.len();
    while i < n {
        let c = cond[i];
        if c.is_ascii_whitespace() || c == b'\\' {
            i += 1;
            continue;
        }
        if c == b'/' && cond.get(i + 1) == Some(&b'/') {
            break;
        }
        if c == b'/' && cond.get(i + 1) == Some(&b'*') {
            let end = cond[i + 2..].windows(2).position(|w| w == b"*/");
            i = end.map_or(n, |k| i + 2 + k + 2);
            continue;
        }
        let two = cond.get(i..i + 2).unwrap_or(&[]);
        match two {
            b"&&" => {
                toks.push(T::And);
                i += 2;
                continue;
            }
            b"||" => {
                toks.push(T::Or);
                i += 2;
                continue;
            }
            b">=" | b"<=" | b"==" | b"!=" => {
                toks.push(T::Cmp(match two {
                    b">=" => b'g',
                    b"<=" => b'l',
                    b"==" => b'=',
                    _ => b'!',
                }));
                i += 2;
                continue;
            }
            _ => {}
        }
        match c {
            b'!' => toks.push(T::Not),
            b'(' => toks.push(T::Open),
            b')' => toks.push(T::Close),
            b'>' | b'<' => toks.push(T::Cmp(c)),
            _ if c.is_ascii_digit() => {
                let s = i;
                while i < n && (cond[i].is_ascii_alphanumeric() || cond[i] == b'\'') {
                    i += 1;
                }
                let digits: String = cond[s..i]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .map(|&b| b as char)
                    .collect();
                toks.push(T::N(digits.parse().ok()));
                continue;
            }
            _ if is_word(c) => {
                let s = i;
                while i < n && is_word(cond[i]) {
                    i += 1;
                }
                let w = &cond[s..i];
                if w == b"defined" {
                    // `defined X` or `defined ( X )`.
                    let mut j = i;
                    while j < n && cond[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    let paren = cond.get(j) == Some(&b'(');
                    if paren {
                        j += 1;
                        while j < n && cond[j].is_ascii_whitespace() {
                            j += 1;
                        }
                    }
                    let ns = j;
                    while j < n && is_word(cond[j]) {
                        j += 1;
                    }
                    let name = &cond[ns..j];
                    if paren {
                        while j < n && cond[j].is_ascii_whitespace() {
                            j += 1;
                        }
                        if cond.get(j) == Some(&b')') {
                            j += 1;
                        }
                    }
                    toks.push(T::V(undefined(name).then_some(false)));
                    i = j;
                } else if undefined(w) {
                    toks.push(T::N(Some(0)));
                } else {
                    toks.push(T::N(None));
                }
                continue;
            }
            _ => toks.push(T::V(None)),
        }
        i += 1;
    }
    // Shunting-yard evaluation over three-valued operands.
    let truth = |t: T| match t {
        T::V(v) => v,
        T::N(v) => v.map(|x| x != 0),
        _ => None,
    };
    let prec = |t: T| match t {
        T::Or => 1,
        T::And => 2,
        T::Cmp(_) => 3,
        T::Not => 4,
        _ => 0,
    };
    let apply = |vals: &mut Vec<T>, op: T| {
        let v = match op {
            T::Not => {
                let a = vals.pop().and_then(truth);
                T::V(a.map(|x| !x))
            }
            T::And | T::Or => {
                let b = vals.pop().and_then(truth);
                let a = vals.pop().and_then(truth);
                T::V(match (op, a, b) {
                    (T::And, Some(false), _) | (T::And, _, Some(false)) => Some(false),
                    (T::And, Some(true), Some(true)) => Some(true),
                    (T::Or, Some(true), _) | (T::Or, _, Some(true)) => Some(true),
                    (T::Or, Some(false), Some(false)) => Some(false),
                    _ => None,
                })
            }
            T::Cmp(k) => {
                let num = |t: Option<T>| match t {
                    Some(T::N(v)) => v,
                    Some(T::V(v)) => v.map(i128::from),
                    _ => None,
                };
                let b = num(vals.pop());
                let a = num(vals.pop());
                T::V(match (a, b) {
                    (Some(a), Some(b)) => Some(match k {
                        b'>' => a > b,
                        b'<' => a < b,
                        b'g' => a >= b,
                        b'l' => a <= b,
                        b'=' => a == b,
                        _ => a != b,
                    }),
                    _ => None,
                })
            }
            _ => T::V(None),
        };
        vals.push(v);
    };
    let mut vals: Vec<T> = Vec::new();
    let mut ops: Vec<T> = Vec::new();
    for t in toks {
        match t {
            T::V(_) | T::N(_) => vals.push(t),
            T::Open => ops.push(t),
            T::Close => {
                while let Some(op) = ops.pop() {
                    if op == T::Open {
                        break;
                    }
                    apply(&mut vals, op);
                }
            }
            T::Not => ops.push(t),
            _ => {
                while let Some(&top) = ops.last() {
                    if top != T::Open && prec(top) >= prec(t) {
                        ops.pop();
                        apply(&mut vals, top);
                    } else {
                        break;
                    }
                }
                ops.push(t);
            }
        }
    }
    while let Some(op) = ops.pop() {
        if op != T::Open {
            apply(&mut vals, op);
        }
    }
    if vals.len() == 1 {
        truth(vals[0])
    } else {
        None
    }
}
