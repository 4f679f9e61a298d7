
// codereward: the trusted harness of a Rust call test (reward_api/verify/calls.py). It
// follows the program in one crate (the program's own `fn main` renamed). The argument
// types are the entry point's own: a trait implemented for every `Fn(A, B, ..) -> R`
// picks them by inference; the argument stream on stdin is decoded into them, and the
// returned value is encoded as JSON by the impls below (no Display, Debug or Serialize
// of the program is asked), reported on fd 3 as NONCE LENGTH '\n' JSON, and the process
// ends with _exit (no destructor or exit handler runs). No macro is used here, so a
// `macro_rules!` of the program cannot change this code.
#[allow(dead_code, non_snake_case, unused_imports)]
mod __cr_call {
    use ::std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
    use ::std::string::{String, ToString};
    use ::std::vec::Vec;

    pub struct In {
        pub s: Vec<u8>,
        pub p: usize,
    }
    pub type Res<T> = ::core::result::Result<T, String>;

    fn s(t: &str) -> String {
        ToString::to_string(t)
    }

    impl In {
        pub fn kind(&self) -> Res<u8> {
            if self.p >= self.s.len() {
                return Err(s("the argument stream ended early"));
            }
            Ok(self.s[self.p])
        }
        fn until(&mut self, end: u8) -> Res<String> {
            let mut e = self.p;
            while e < self.s.len() && self.s[e] != end {
                e += 1;
            }
            if e >= self.s.len() {
                return Err(s("the argument stream is malformed"));
            }
            let t = String::from_utf8_lossy(&self.s[self.p..e]).into_owned();
            self.p = e + 1;
            Ok(t)
        }
        pub fn count(&mut self) -> Res<usize> {
            self.until(b':')?.parse::<usize>().map_err(|_| s("the argument stream is malformed"))
        }
        fn mismatch<T>(&self, want: &str) -> Res<T> {
            let got = match self.kind()? {
                b'n' => "null",
                b't' | b'f' => "a boolean",
                b'i' => "an integer",
                b'd' => "a float",
                b's' => "a string",
                b'l' => "a list",
                b'm' => "an object",
                _ => "a value",
            };
            let mut m = s("expected ");
            m.push_str(want);
            m.push_str(", got ");
            m.push_str(got);
            Err(m)
        }
        fn str(&mut self) -> Res<String> {
            if self.kind()? != b's' {
                return self.mismatch("a string");
            }
            self.p += 1;
            let n = self.count()?;
            if n > self.s.len() - self.p {
                return Err(s("the argument stream is malformed"));
            }
            let t = String::from_utf8_lossy(&self.s[self.p..self.p + n]).into_owned();
            self.p += n;
            Ok(t)
        }
        fn int(&mut self) -> Res<i128> {
            if self.kind()? != b'i' {
                return self.mismatch("an integer");
            }
            self.p += 1;
            let t = self.until(b';')?;
            t.parse::<i128>().map_err(|_| {
                let mut m = s("the integer ");
                m.push_str(&t);
                m.push_str(" does not fit the parameter type");
                m
            })
        }
        pub fn list(&mut self) -> Res<usize> {
            if self.kind()? != b'l' {
                return self.mismatch("a list");
            }
            self.p += 1;
            self.count()
        }
        fn map(&mut self) -> Res<usize> {
            if self.kind()? != b'm' {
                return self.mismatch("an object");
            }
            self.p += 1;
            self.count()
        }
    }

    pub trait Dec: Sized {
        fn dec(i: &mut In) -> Res<Self>;
    }
    pub trait Enc {
        fn enc(&self, o: &mut String) -> Res<()>;
    }

    macro_rules! __cr_ints {
        ($($t:ty),*) => {$(
            impl Dec for $t {
                fn dec(i: &mut In) -> Res<Self> {
                    let v = i.int()?;
                    <$t as ::core::convert::TryFrom<i128>>::try_from(v).map_err(|_| {
                        let mut m = s("the integer ");
                        m.push_str(&ToString::to_string(&v));
                        m.push_str(" does not fit the parameter type");
                        m
                    })
                }
            }
            impl Enc for $t {
                fn enc(&self, o: &mut String) -> Res<()> {
                    o.push_str(&ToString::to_string(self));
                    Ok(())
                }
            }
        )*};
    }
    __cr_ints!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, usize);

    fn real(i: &mut In) -> Res<f64> {
        let k = i.kind()?;
        if k != b'i' && k != b'd' {
            return i.mismatch("a number");
        }
        i.p += 1;
        let t = i.until(b';')?;
        t.parse::<f64>().map_err(|_| s("the argument stream is malformed"))
    }
    fn enc_real(f: f64, text: String, o: &mut String) {
        if f.is_nan() {
            o.push_str("NaN");
        } else if f.is_infinite() {
            o.push_str(if f > 0.0 { "Infinity" } else { "-Infinity" });
        } else {
            o.push_str(&text);
        }
    }
    impl Dec for f64 {
        fn dec(i: &mut In) -> Res<Self> {
            real(i)
        }
    }
    impl Dec for f32 {
        fn dec(i: &mut In) -> Res<Self> {
            Ok(real(i)? as f32)
        }
    }
    impl Enc for f64 {
        fn enc(&self, o: &mut String) -> Res<()> {
            enc_real(*self, ToString::to_string(self), o);
            Ok(())
        }
    }
    impl Enc for f32 {
        fn enc(&self, o: &mut String) -> Res<()> {
            enc_real(*self as f64, ToString::to_string(self), o);
            Ok(())
        }
    }
    impl Dec for bool {
        fn dec(i: &mut In) -> Res<Self> {
            match i.kind()? {
                b't' => {
                    i.p += 1;
                    Ok(true)
                }
                b'f' => {
                    i.p += 1;
                    Ok(false)
                }
                _ => i.mismatch("a boolean"),
            }
        }
    }
    impl Enc for bool {
        fn enc(&self, o: &mut String) -> Res<()> {
            o.push_str(if *self { "true" } else { "false" });
            Ok(())
        }
    }
    impl Dec for char {
        fn dec(i: &mut In) -> Res<Self> {
            let t = i.str()?;
            let mut c = t.chars();
            match (c.next(), c.next()) {
                (Some(x), None) => Ok(x),
                _ => Err(s("expected a one-character string for a char")),
            }
        }
    }
    pub fn enc_str(t: &str, o: &mut String) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        o.push('"');
        for c in t.chars() {
            if c == '"' || c == '\\' {
                o.push('\\');
                o.push(c);
            } else if (c as u32) < 0x20 {
                o.push_str("\\u00");
                o.push(HEX[(c as usize) >> 4] as char);
                o.push(HEX[(c as usize) & 15] as char);
            } else {
                o.push(c);
            }
        }
        o.push('"');
    }
    impl Enc for char {
        fn enc(&self, o: &mut String) -> Res<()> {
            let mut b = [0u8; 4];
            enc_str(self.encode_utf8(&mut b), o);
            Ok(())
        }
    }
    impl Dec for String {
        fn dec(i: &mut In) -> Res<Self> {
            i.str()
        }
    }
    impl Enc for String {
        fn enc(&self, o: &mut String) -> Res<()> {
            enc_str(self, o);
            Ok(())
        }
    }
    impl Enc for str {
        fn enc(&self, o: &mut String) -> Res<()> {
            enc_str(self, o);
            Ok(())
        }
    }
    // A borrowed parameter lives to the end of the process: leaked (one call per process).
    impl Dec for &'static str {
        fn dec(i: &mut In) -> Res<Self> {
            Ok(::std::boxed::Box::leak(i.str()?.into_boxed_str()))
        }
    }
    impl<T: Dec> Dec for &'static [T] {
        fn dec(i: &mut In) -> Res<Self> {
            Ok(::std::boxed::Box::leak(<Vec<T> as Dec>::dec(i)?.into_boxed_slice()))
        }
    }
    impl<T: Dec> Dec for &'static T {
        fn dec(i: &mut In) -> Res<Self> {
            Ok(::std::boxed::Box::leak(::std::boxed::Box::new(<T as Dec>::dec(i)?)))
        }
    }
    // LeetCode's in-place signatures: &mut Vec<i32>, &mut Vec<Vec<char>>, &mut Option<Rc<..>>
    impl<T: Dec> Dec for &'static mut T {
        fn dec(i: &mut In) -> Res<Self> {
            Ok(::std::boxed::Box::leak(::std::boxed::Box::new(<T as Dec>::dec(i)?)))
        }
    }
    impl<T: Enc + ?Sized> Enc for &T {
        fn enc(&self, o: &mut String) -> Res<()> {
            (**self).enc(o)
        }
    }
    impl<T: Enc + ?Sized> Enc for &mut T {
        fn enc(&self, o: &mut String) -> Res<()> {
            (**self).enc(o)
        }
    }
    impl<T: Enc + ?Sized> Enc for ::std::boxed::Box<T> {
        fn enc(&self, o: &mut String) -> Res<()> {
            (**self).enc(o)
        }
    }
    impl<T: Dec> Dec for Option<T> {
        fn dec(i: &mut In) -> Res<Self> {
            if i.kind()? == b'n' {
                i.p += 1;
                return Ok(None);
            }
            Ok(Some(T::dec(i)?))
        }
    }
    impl<T: Enc> Enc for Option<T> {
        fn enc(&self, o: &mut String) -> Res<()> {
            match self {
                None => {
                    o.push_str("null");
                    Ok(())
                }
                Some(x) => x.enc(o),
            }
        }
    }
    impl Enc for () {
        fn enc(&self, o: &mut String) -> Res<()> {
            o.push_str("null");
            Ok(())
        }
    }
    fn enc_seq<'a, T: Enc + 'a, I: Iterator<Item = &'a T>>(it: I, o: &mut String) -> Res<()> {
        o.push('[');
        for (k, x) in it.enumerate() {
            if k > 0 {
                o.push(',');
            }
            x.enc(o)?;
        }
        o.push(']');
        Ok(())
    }
    impl<T: Dec> Dec for Vec<T> {
        fn dec(i: &mut In) -> Res<Self> {
            let n = i.list()?;
            let mut v = Vec::new();
            for _ in 0..n {
                v.push(T::dec(i)?);
            }
            Ok(v)
        }
    }
    impl<T: Enc> Enc for Vec<T> {
        fn enc(&self, o: &mut String) -> Res<()> {
            enc_seq(self.iter(), o)
        }
    }
    impl<T: Enc> Enc for [T] {
        fn enc(&self, o: &mut String) -> Res<()> {
            enc_seq(self.iter(), o)
        }
    }
    impl<T: Dec> Dec for VecDeque<T> {
        fn dec(i: &mut In) -> Res<Self> {
            Ok(<Vec<T> as Dec>::dec(i)?.into_iter().collect())
        }
    }
    impl<T: Enc> Enc for VecDeque<T> {
        fn enc(&self, o: &mut String) -> Res<()> {
            enc_seq(self.iter(), o)
        }
    }
    impl<T: Dec + Ord> Dec for BTreeSet<T> {
        fn dec(i: &mut In) -> Res<Self> {
            Ok(<Vec<T> as Dec>::dec(i)?.into_iter().collect())
        }
    }
    impl<T: Enc> Enc for BTreeSet<T> {
        fn enc(&self, o: &mut String) -> Res<()> {
            enc_seq(self.iter(), o)
        }
    }
    impl<T: Dec + Eq + ::std::hash::Hash> Dec for HashSet<T> {
        fn dec(i: &mut In) -> Res<Self> {
            Ok(<Vec<T> as Dec>::dec(i)?.into_iter().collect())
        }
    }
    impl<T: Enc> Enc for HashSet<T> {
        fn enc(&self, o: &mut String) -> Res<()> {
            enc_seq(self.iter(), o)
        }
    }
    fn key<K: Dec>(i: &mut In) -> Res<K> {
        let k = i.str()?;
        let mut t = In { s: Vec::new(), p: 0 };
        if ::core::any::type_name::<K>() == ::core::any::type_name::<String>() {
            t.s.push(b's');
            t.s.extend_from_slice(ToString::to_string(&k.len()).as_bytes());
            t.s.push(b':');
        } else {
            t.s.push(b'i');
        }
        t.s.extend_from_slice(k.as_bytes());
        if t.s[0] == b'i' {
            t.s.push(b';');
        }
        K::dec(&mut t)
    }
    fn enc_map<'a, K: Enc + 'a, V: Enc + 'a, I: Iterator<Item = (&'a K, &'a V)>>(it: I, o: &mut String) -> Res<()> {
        o.push('{');
        for (n, (k, v)) in it.enumerate() {
            if n > 0 {
                o.push(',');
            }
            let mut t = String::new();
            k.enc(&mut t)?;
            if t.starts_with('"') {
                o.push_str(&t);
            } else {
                enc_str(&t, o);
            }
            o.push(':');
            v.enc(o)?;
        }
        o.push('}');
        Ok(())
    }
    impl<K: Dec + Eq + ::std::hash::Hash, V: Dec> Dec for HashMap<K, V> {
        fn dec(i: &mut In) -> Res<Self> {
            let n = i.map()?;
            let mut m = HashMap::new();
            for _ in 0..n {
                let k = key::<K>(i)?;
                m.insert(k, V::dec(i)?);
            }
            Ok(m)
        }
    }
    impl<K: Enc, V: Enc> Enc for HashMap<K, V> {
        fn enc(&self, o: &mut String) -> Res<()> {
            enc_map(self.iter(), o)
        }
    }
    impl<K: Dec + Ord, V: Dec> Dec for BTreeMap<K, V> {
        fn dec(i: &mut In) -> Res<Self> {
            let n = i.map()?;
            let mut m = BTreeMap::new();
            for _ in 0..n {
                let k = key::<K>(i)?;
                m.insert(k, V::dec(i)?);
            }
            Ok(m)
        }
    }
    impl<K: Enc, V: Enc> Enc for BTreeMap<K, V> {
        fn enc(&self, o: &mut String) -> Res<()> {
            enc_map(self.iter(), o)
        }
    }
    macro_rules! __cr_tuples {
        ($(($($t:ident $n:tt),+)),*) => {$(
            impl<$($t: Enc),+> Enc for ($($t,)+) {
                fn enc(&self, o: &mut String) -> Res<()> {
                    o.push('[');
                    $( if $n > 0 { o.push(','); } self.$n.enc(o)?; )+
                    o.push(']');
                    Ok(())
                }
            }
        )*};
    }
    __cr_tuples!((A 0, B 1), (A 0, B 1, C 2), (A 0, B 1, C 2, D 3));

    /// An entry point of any arity whose parameters decode and whose result encodes.
    pub trait Call<Args> {
        fn arity(&self) -> usize;
        fn call(&self, i: &mut In) -> Res<Res<String>>;
    }
    fn arg<T: Dec>(i: &mut In, n: usize) -> Res<T> {
        T::dec(i).map_err(|e| {
            let mut m = s("argument ");
            m.push_str(&ToString::to_string(&n));
            m.push_str(": ");
            m.push_str(&e);
            m
        })
    }
    fn ok<R: Enc>(r: R) -> Res<String> {
        let mut o = s("{\"ok\":");
        r.enc(&mut o)?;
        o.push('}');
        Ok(o)
    }
    macro_rules! __cr_calls {
        ($($n:expr => ($($a:ident $k:expr),*)),*) => {$(
            impl<F, R: Enc, $($a: Dec),*> Call<($($a,)*)> for F where F: Fn($($a),*) -> R {
                fn arity(&self) -> usize { $n }
                #[allow(unused_variables)]
                fn call(&self, i: &mut In) -> Res<Res<String>> {
                    $( let $a = arg::<$a>(i, $k)?; )*
                    Ok(ok((self)($($a),*)))
                }
            }
        )*};
    }
    __cr_calls!(0 => (), 1 => (A 1), 2 => (A 1, B 2), 3 => (A 1, B 2, C 3), 4 => (A 1, B 2, C 3, D 4),
                5 => (A 1, B 2, C 3, D 4, E 5), 6 => (A 1, B 2, C 3, D 4, E 5, G 6),
                7 => (A 1, B 2, C 3, D 4, E 5, G 6, H 7), 8 => (A 1, B 2, C 3, D 4, E 5, G 6, H 7, J 8));

    extern "C" {
        fn _exit(code: i32) -> !;
        fn write(fd: i32, buf: *const u8, n: usize) -> isize;
    }

    pub fn report(json: &str) -> ! {
        let mut msg = s("__CR_NONCE__");
        msg.push_str(&ToString::to_string(&json.len()));
        msg.push('\n');
        msg.push_str(json);
        let b = msg.as_bytes();
        let mut p = 0;
        while p < b.len() {
            let w = unsafe { write(3, b[p..].as_ptr(), b.len() - p) };
            if w <= 0 {
                unsafe { _exit(1) }
            }
            p += w as usize;
        }
        unsafe { _exit(0) }
    }

    pub fn fail(kind: &str, why: &str) -> ! {
        let mut o = s("{\"error\":");
        enc_str(why, &mut o);
        o.push_str(",\"kind\":\"");
        o.push_str(kind);
        o.push_str("\"}");
        report(&o)
    }

    pub fn run<Args, F: Call<Args>>(f: F) -> ! {
        let mut input = Vec::new();
        let _ = ::std::io::Read::read_to_end(&mut ::std::io::stdin(), &mut input);
        let mut i = In { s: input, p: 0 };
        let n = match i.list() {
            Ok(n) => n,
            Err(e) => fail("args", &e),
        };
        if n != f.arity() {
            let mut m = s("the entry point takes ");
            m.push_str(&ToString::to_string(&f.arity()));
            m.push_str(" arguments, the test gives ");
            m.push_str(&ToString::to_string(&n));
            fail("args", &m);
        }
        match f.call(&mut i) {
            Err(e) => fail("args", &e),
            Ok(Err(e)) => fail("value", &e),
            Ok(Ok(json)) => report(&json),
        }
    }
}

fn main() {
    __cr_call::run(__CR_ENTRY__)
}
