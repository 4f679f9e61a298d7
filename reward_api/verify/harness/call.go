
// codereward: the trusted harness of a Go call test (reward_api/verify/calls.py). It
// follows the program in its package main (the program's own main renamed). The
// argument types come from the entry point's own type (reflect), the argument stream on
// stdin is decoded into them, and the returned values are encoded as JSON by the
// functions below (no MarshalJSON or String method of the program is asked), reported
// on fd 3 as NONCE LENGTH '\n' JSON, and the process exits.

type __cr_bad struct{ why string }

type __cr_in struct {
	s []byte
	p int
}

func (in *__cr_in) kind() byte {
	if in.p >= len(in.s) {
		panic(__cr_bad{"the argument stream ended early"})
	}
	return in.s[in.p]
}

func (in *__cr_in) until(end byte) string {
	for e := in.p; e < len(in.s); e++ {
		if in.s[e] == end {
			t := string(in.s[in.p:e])
			in.p = e + 1
			return t
		}
	}
	panic(__cr_bad{"the argument stream is malformed"})
}

func (in *__cr_in) count() int {
	n, err := __cr_strconv.Atoi(in.until(':'))
	if err != nil {
		panic(__cr_bad{"the argument stream is malformed"})
	}
	return n
}

func (in *__cr_in) mismatch(want string) {
	got := map[byte]string{'n': "null", 't': "a boolean", 'f': "a boolean", 'i': "an integer",
		'd': "a float", 's': "a string", 'l': "a list", 'm': "an object"}[in.kind()]
	panic(__cr_bad{"expected " + want + ", got " + got})
}

func (in *__cr_in) str() string {
	if in.kind() != 's' {
		in.mismatch("a string")
	}
	in.p++
	n := in.count()
	if n > len(in.s)-in.p {
		panic(__cr_bad{"the argument stream is malformed"})
	}
	t := string(in.s[in.p : in.p+n])
	in.p += n
	return t
}

func (in *__cr_in) dec(t __cr_reflect.Type) __cr_reflect.Value {
	v := __cr_reflect.New(t).Elem()
	k := in.kind()
	switch t.Kind() {
	case __cr_reflect.Bool:
		if k != 't' && k != 'f' {
			in.mismatch("a boolean")
		}
		in.p++
		v.SetBool(k == 't')
	case __cr_reflect.Int, __cr_reflect.Int8, __cr_reflect.Int16, __cr_reflect.Int32, __cr_reflect.Int64:
		if k == 's' && (t.Kind() == __cr_reflect.Int32) { // a rune
			r := []rune(in.str())
			if len(r) != 1 {
				panic(__cr_bad{"expected a one-character string for a rune"})
			}
			v.SetInt(int64(r[0]))
			break
		}
		if k != 'i' {
			in.mismatch("an integer")
		}
		in.p++
		t0 := in.until(';')
		n, err := __cr_strconv.ParseInt(t0, 10, 64)
		if err != nil || v.OverflowInt(n) {
			panic(__cr_bad{"the integer " + t0 + " does not fit the parameter type"})
		}
		v.SetInt(n)
	case __cr_reflect.Uint, __cr_reflect.Uint8, __cr_reflect.Uint16, __cr_reflect.Uint32, __cr_reflect.Uint64, __cr_reflect.Uintptr:
		if k == 's' && t.Kind() == __cr_reflect.Uint8 { // a byte, as LeetCode's [][]byte boards
			b := in.str()
			if len(b) != 1 {
				panic(__cr_bad{"expected a one-character string for a byte"})
			}
			v.SetUint(uint64(b[0]))
			break
		}
		if k != 'i' {
			in.mismatch("an integer")
		}
		in.p++
		t0 := in.until(';')
		n, err := __cr_strconv.ParseUint(t0, 10, 64)
		if err != nil || v.OverflowUint(n) {
			panic(__cr_bad{"the integer " + t0 + " does not fit the parameter type"})
		}
		v.SetUint(n)
	case __cr_reflect.Float32, __cr_reflect.Float64:
		if k != 'i' && k != 'd' {
			in.mismatch("a number")
		}
		in.p++
		t0 := in.until(';')
		f, err := __cr_strconv.ParseFloat(t0, 64)
		if err != nil {
			panic(__cr_bad{"the argument stream is malformed"})
		}
		v.SetFloat(f)
	case __cr_reflect.String:
		v.SetString(in.str())
	case __cr_reflect.Slice, __cr_reflect.Array:
		if k == 'n' && t.Kind() == __cr_reflect.Slice {
			in.p++
			break
		}
		if k != 'l' {
			in.mismatch("a list")
		}
		in.p++
		n := in.count()
		if t.Kind() == __cr_reflect.Array {
			if n != t.Len() {
				panic(__cr_bad{"expected a list of " + __cr_strconv.Itoa(t.Len())})
			}
		} else {
			v.Set(__cr_reflect.MakeSlice(t, n, n))
		}
		for i := 0; i < n; i++ {
			v.Index(i).Set(in.dec(t.Elem()))
		}
	case __cr_reflect.Map:
		if k == 'n' {
			in.p++
			break
		}
		if k != 'm' {
			in.mismatch("an object")
		}
		in.p++
		n := in.count()
		v.Set(__cr_reflect.MakeMap(t))
		for i := 0; i < n; i++ {
			key := in.str()
			var kv __cr_reflect.Value
			if t.Key().Kind() == __cr_reflect.String {
				kv = __cr_reflect.ValueOf(key).Convert(t.Key())
			} else {
				kv = (&__cr_in{s: []byte("i" + key + ";")}).dec(t.Key())
			}
			v.SetMapIndex(kv, in.dec(t.Elem()))
		}
	case __cr_reflect.Ptr:
		if k == 'n' {
			in.p++
			break
		}
		if nk := __cr_node(t.Elem()); nk != "" {
			in.nodes(v, nk)
			break
		}
		p := __cr_reflect.New(t.Elem())
		if t.Elem().Kind() == __cr_reflect.Struct {
			panic(__cr_bad{"the parameter type " + t.String() + " is not supported by call tests"})
		}
		p.Elem().Set(in.dec(t.Elem()))
		v.Set(p)
	case __cr_reflect.Interface:
		if t.NumMethod() != 0 {
			panic(__cr_bad{"the parameter type " + t.String() + " is not supported by call tests"})
		}
		var g __cr_reflect.Type
		switch k {
		case 'n':
			in.p++
			return v
		case 't', 'f':
			g = __cr_reflect.TypeOf(true)
		case 'i':
			g = __cr_reflect.TypeOf(int(0))
		case 'd':
			g = __cr_reflect.TypeOf(0.0)
		case 's':
			g = __cr_reflect.TypeOf("")
		case 'l':
			g = __cr_reflect.TypeOf([]interface{}{})
		default:
			g = __cr_reflect.TypeOf(map[string]interface{}{})
		}
		v.Set(in.dec(g))
	default:
		panic(__cr_bad{"the parameter type " + t.String() + " is not supported by call tests"})
	}
	return v
}

// LeetCode's nodes: a ListNode (Val, Next) crosses as the list of its values, a TreeNode
// (Val, Left, Right) as its level order with null for a missing child.
func __cr_node(t __cr_reflect.Type) string {
	if t.Kind() != __cr_reflect.Struct || t.PkgPath() != "main" {
		return ""
	}
	self := __cr_reflect.PtrTo(t)
	has := func(name string, ft __cr_reflect.Type) bool {
		f, ok := t.FieldByName(name)
		return ok && len(f.Index) == 1 && f.PkgPath == "" && (ft == nil || f.Type == ft)
	}
	if t.Name() == "ListNode" && has("Val", nil) && has("Next", self) {
		return "list"
	}
	if t.Name() == "TreeNode" && has("Val", nil) && has("Left", self) && has("Right", self) {
		return "tree"
	}
	return ""
}

const __cr_max_nodes = 1 << 22

func (in *__cr_in) nodes(v __cr_reflect.Value, kind string) {
	t := v.Type()
	if in.kind() != 'l' {
		in.mismatch("a list for a " + t.Elem().Name())
	}
	in.p++
	n := in.count()
	val, _ := t.Elem().FieldByName("Val")
	slots := []__cr_reflect.Value{v}
	next := 0
	for i := 0; i < n; i++ {
		if kind == "tree" && in.kind() == 'n' {
			in.p++
			next++
			continue
		}
		if next >= len(slots) {
			panic(__cr_bad{"the level order places a node under no parent"})
		}
		p := __cr_reflect.New(t.Elem())
		p.Elem().FieldByIndex(val.Index).Set(in.dec(val.Type))
		slots[next].Set(p)
		if kind == "list" {
			slots = append(slots, p.Elem().FieldByName("Next"))
		} else {
			slots = append(slots, p.Elem().FieldByName("Left"), p.Elem().FieldByName("Right"))
		}
		next++
	}
}

func __cr_enc_nodes(o []byte, v __cr_reflect.Value, kind string) []byte {
	seen := map[uintptr]bool{}
	level := []__cr_reflect.Value{v}
	var items []byte
	keep := 0
	for i := 0; i < len(level); i++ {
		if i > 0 {
			items = append(items, ',')
		}
		n := level[i]
		if n.IsNil() {
			items = append(items, "null"...)
			continue
		}
		if seen[n.Pointer()] || len(seen) > __cr_max_nodes {
			panic(__cr_bad{"the returned " + kind + " has a cycle or a shared node"})
		}
		seen[n.Pointer()] = true
		items = __cr_enc(items, n.Elem().FieldByName("Val"))
		keep = len(items)
		if kind == "list" {
			level = append(level, n.Elem().FieldByName("Next"))
		} else {
			level = append(level, n.Elem().FieldByName("Left"), n.Elem().FieldByName("Right"))
		}
	}
	o = append(o, '[')
	o = append(o, items[:keep]...)
	return append(o, ']')
}

func __cr_str(o []byte, s string) []byte {
	const hex = "0123456789abcdef"
	o = append(o, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			o = append(o, '\\', c)
		case c < 0x20:
			o = append(o, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			o = append(o, c)
		}
	}
	return append(o, '"')
}

func __cr_enc(o []byte, v __cr_reflect.Value) []byte {
	switch v.Kind() {
	case __cr_reflect.Bool:
		if v.Bool() {
			return append(o, "true"...)
		}
		return append(o, "false"...)
	case __cr_reflect.Int, __cr_reflect.Int8, __cr_reflect.Int16, __cr_reflect.Int32, __cr_reflect.Int64:
		return __cr_strconv.AppendInt(o, v.Int(), 10)
	case __cr_reflect.Uint8: // a byte, LeetCode's Go character: "c", as dec reads it
		return __cr_str(o, string(rune(v.Uint())))
	case __cr_reflect.Uint, __cr_reflect.Uint16, __cr_reflect.Uint32, __cr_reflect.Uint64, __cr_reflect.Uintptr:
		return __cr_strconv.AppendUint(o, v.Uint(), 10)
	case __cr_reflect.Float32, __cr_reflect.Float64:
		f := v.Float()
		switch {
		case __cr_math.IsNaN(f):
			return append(o, "NaN"...)
		case __cr_math.IsInf(f, 1):
			return append(o, "Infinity"...)
		case __cr_math.IsInf(f, -1):
			return append(o, "-Infinity"...)
		}
		bits := 64
		if v.Kind() == __cr_reflect.Float32 {
			bits = 32
		}
		return __cr_strconv.AppendFloat(o, f, 'g', -1, bits)
	case __cr_reflect.String:
		return __cr_str(o, v.String())
	case __cr_reflect.Slice, __cr_reflect.Array:
		if v.Kind() == __cr_reflect.Slice && v.IsNil() {
			return append(o, "[]"...)
		}
		o = append(o, '[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				o = append(o, ',')
			}
			o = __cr_enc(o, v.Index(i))
		}
		return append(o, ']')
	case __cr_reflect.Map:
		o = append(o, '{')
		for i, it := 0, v.MapRange(); it.Next(); i++ {
			if i > 0 {
				o = append(o, ',')
			}
			if it.Key().Kind() == __cr_reflect.String {
				o = __cr_str(o, it.Key().String())
			} else {
				o = __cr_str(o, string(__cr_enc(nil, it.Key())))
			}
			o = append(o, ':')
			o = __cr_enc(o, it.Value())
		}
		return append(o, '}')
	case __cr_reflect.Ptr, __cr_reflect.Interface:
		if nk := ""; v.Kind() == __cr_reflect.Ptr {
			if nk = __cr_node(v.Type().Elem()); nk != "" {
				return __cr_enc_nodes(o, v, nk)
			}
		}
		if v.IsNil() {
			return append(o, "null"...)
		}
		if v.Kind() == __cr_reflect.Ptr && v.Elem().Kind() == __cr_reflect.Struct {
			panic(__cr_bad{"the entry point returned a " + v.Type().String()})
		}
		return __cr_enc(o, v.Elem())
	}
	panic(__cr_bad{"the entry point returned a " + v.Type().String()})
}

func __cr_report(json []byte) {
	out := __cr_os.NewFile(3, "pass")
	msg := append([]byte("__CR_NONCE__"+__cr_strconv.Itoa(len(json))+"\n"), json...)
	if _, err := out.Write(msg); err != nil {
		__cr_os.Exit(1)
	}
	__cr_os.Exit(0)
}

func __cr_fail(kind, why string) {
	__cr_report(append(__cr_str([]byte(`{"error":`), why), `,"kind":"`+kind+`"}`...))
}

func main() {
	input, _ := __cr_io.ReadAll(__cr_os.Stdin)
	f := __cr_reflect.ValueOf(__CR_ENTRY__)
	t := f.Type()
	args := make([]__cr_reflect.Value, t.NumIn())
	func() {
		defer func() {
			if r := recover(); r != nil {
				b, ok := r.(__cr_bad)
				if !ok {
					panic(r)
				}
				__cr_fail("args", b.why)
			}
		}()
		in := &__cr_in{s: input}
		if in.kind() != 'l' {
			panic(__cr_bad{"the arguments are not a list"})
		}
		in.p++
		n := in.count()
		if t.IsVariadic() || n != t.NumIn() {
			panic(__cr_bad{"the entry point takes " + __cr_strconv.Itoa(t.NumIn()) + " arguments, the test gives " + __cr_strconv.Itoa(n)})
		}
		for i := 0; i < n; i++ {
			func() {
				defer func() {
					if r := recover(); r != nil {
						if b, ok := r.(__cr_bad); ok {
							panic(__cr_bad{"argument " + __cr_strconv.Itoa(i+1) + ": " + b.why})
						}
						panic(r)
					}
				}()
				args[i] = in.dec(t.In(i))
			}()
		}
	}()
	out := f.Call(args)
	o := []byte(`{"ok":`)
	func() {
		defer func() {
			if r := recover(); r != nil {
				b, ok := r.(__cr_bad)
				if !ok {
					panic(r)
				}
				__cr_fail("value", b.why)
			}
		}()
		switch len(out) {
		case 0:
			o = append(o, "null"...)
		case 1:
			o = __cr_enc(o, out[0])
		default: // several results: a list, as Python's tuple
			o = append(o, '[')
			for i, r := range out {
				if i > 0 {
					o = append(o, ',')
				}
				o = __cr_enc(o, r)
			}
			o = append(o, ']')
		}
	}()
	__cr_report(append(o, '}'))
}
