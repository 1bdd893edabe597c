package httpapi

import (
	"reflect"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// markNullObjects makes the document say "or null" for object fields the
// server can send as null. encoding/json writes a nil pointer field without
// omitempty as null (wait's message on timeout, extract/code's message and
// screening without a match), but huma describes a pointer to a struct as
// the plain object and refuses its nullable tag on objects, so generated
// clients would reject the null. Each such property becomes
// anyOf [the object, null], the OpenAPI 3.1 (JSON Schema) spelling. It runs
// once over every schema in the document, after all operations registered.
func markNullObjects(reg huma.Registry) {
	const prefix = "#/components/schemas/"
	for name, schema := range reg.Map() {
		t := reg.TypeFromRef(prefix + name)
		if t == nil || t.Kind() != reflect.Struct {
			continue
		}
		for _, f := range reflect.VisibleFields(t) {
			if f.Anonymous || !f.IsExported() || f.Type.Kind() != reflect.Pointer || f.Type.Elem().Kind() != reflect.Struct {
				continue
			}
			tag := f.Tag.Get("json")
			jsonName, opts, _ := strings.Cut(tag, ",")
			if jsonName == "-" || strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,") {
				continue
			}
			if jsonName == "" {
				jsonName = f.Name
			}
			p := schema.Properties[jsonName]
			if p == nil || p.Ref == "" {
				continue
			}
			schema.Properties[jsonName] = &huma.Schema{Description: p.Description,
				AnyOf: []*huma.Schema{{Ref: p.Ref}, {Type: "null"}}}
		}
	}
}
