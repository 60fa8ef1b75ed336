package pgcompute

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// The JSON of SQL over HTTP, as the service writes it: parameters arrive as JSON
// values and go to Postgres as text; rows come back as Postgres's text (with
// Neon-Raw-Text-Output: true, as the serverless driver asks) or as JSON types.

// textParams turns the JSON parameters of every query into Postgres text.
func (req *sqlRequest) textParams() error {
	qs := req.batch
	if req.single != nil {
		qs = []sqlQuery{*req.single}
		defer func() { *req.single = qs[0] }()
	}
	for i := range qs {
		for n, raw := range qs[i].Params {
			var v any
			d := json.NewDecoder(bytes.NewReader(raw))
			d.UseNumber()
			if err := d.Decode(&v); err != nil {
				return badSQLRequest("parameter $%d: %v", n+1, err)
			}
			qs[i].params = append(qs[i].params, paramText(v))
		}
	}
	return nil
}

// paramText is a parameter's text: a string as it is, null as NULL, numbers,
// booleans and objects as their JSON, and a list as a Postgres array.
func paramText(v any) []byte {
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		return []byte(v)
	case []any:
		return []byte(arrayLiteral(v))
	default:
		return []byte(jsonText(v))
	}
}

// jsonText is v's JSON as JSON.stringify writes it (no HTML escapes).
func jsonText(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

// quoteItem quotes an array item for Postgres: in double quotes, with \" and \\.
func quoteItem(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// arrayLiteral is Postgres's text of a list: {1,"a",NULL,{...}}, objects as
// quoted JSON.
func arrayLiteral(list []any) string {
	items := make([]string, len(list))
	for i, v := range list {
		switch v := v.(type) {
		case nil:
			items[i] = "NULL"
		case []any:
			items[i] = arrayLiteral(v)
		case string:
			items[i] = quoteItem(v)
		case map[string]any:
			items[i] = quoteItem(jsonText(v))
		default:
			items[i] = jsonText(v)
		}
	}
	return "{" + strings.Join(items, ",") + "}"
}

// result runs one query and writes its result: {"fields", "rows", "command",
// "rowCount", "rowAsArray"}.
func (req *sqlRequest) result(ctx context.Context, pg *pgconn.PgConn, q *sqlQuery, out *bytes.Buffer) error {
	array := req.array
	if q.ArrayMode != nil {
		array = *q.ArrayMode
	}
	rr := pg.ExecParams(ctx, *q.Query, q.params, nil, nil, nil)
	fields := rr.FieldDescriptions()
	var rows bytes.Buffer
	rows.WriteByte('[')
	for n := 0; rr.NextRow(); n++ {
		if n > 0 {
			rows.WriteByte(',')
		}
		writeRow(&rows, fields, rr.Values(), req.raw, array)
		if rows.Len() > maxSQLAnswer {
			rr.Close()
			return &requestError{http.StatusInsufficientStorage, fmt.Sprintf("response is too large (max is %d bytes)", maxSQLAnswer)}
		}
	}
	rows.WriteByte(']')
	tag, err := rr.Close()
	if err != nil {
		return err
	}
	command, count := commandTag(tag.String())
	fmt.Fprintf(out, `{"rowAsArray":%t,"fields":`, array)
	writeFields(out, fields)
	out.WriteString(`,"rows":`)
	out.Write(rows.Bytes())
	out.WriteString(`,"command":`)
	writeJSON(out, command)
	out.WriteString(`,"rowCount":`)
	writeJSON(out, count)
	out.WriteByte('}')
	return nil
}

// commandTag is the command of a tag and the rows it counts (nil for none):
// "INSERT 0 3" is INSERT and 3, "SELECT 2" SELECT and 2, "CREATE TABLE" none.
func commandTag(tag string) (string, *int64) {
	name, rest, ok := strings.Cut(tag, " ")
	if !ok {
		return tag, nil
	}
	if name == "INSERT" { // INSERT oid count
		_, rest, _ = strings.Cut(rest, " ")
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	if err != nil {
		return name, nil
	}
	return name, &n
}

func writeFields(out *bytes.Buffer, fields []pgconn.FieldDescription) {
	out.WriteByte('[')
	for i, f := range fields {
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteString(`{"name":`)
		writeJSON(out, f.Name)
		fmt.Fprintf(out, `,"dataTypeID":%d,"tableID":%d,"columnID":%d,"dataTypeSize":%d,"dataTypeModifier":%d,"format":"text"}`,
			f.DataTypeOID, f.TableOID, f.TableAttributeNumber, f.DataTypeSize, f.TypeModifier)
	}
	out.WriteByte(']')
}

// writeRow writes a row as a list or as an object by column name.
func writeRow(out *bytes.Buffer, fields []pgconn.FieldDescription, values [][]byte, raw, array bool) {
	open, end := byte('{'), byte('}')
	if array {
		open, end = '[', ']'
	}
	out.WriteByte(open)
	for i, v := range values {
		if i > 0 {
			out.WriteByte(',')
		}
		if !array {
			writeJSON(out, fields[i].Name)
			out.WriteByte(':')
		}
		switch {
		case v == nil:
			out.WriteString("null")
		case raw:
			writeJSON(out, string(v))
		default:
			writeTyped(out, string(v), fields[i].DataTypeOID)
		}
	}
	out.WriteByte(end)
}

func writeJSON(out *bytes.Buffer, v any) {
	b, _ := json.Marshal(v)
	out.Write(b)
}

// types knows which types are arrays, and of what.
var types = pgtype.NewMap()

// writeTyped writes a value as the service types it without
// Neon-Raw-Text-Output: booleans, 2- and 4-byte integers and finite floats as JSON
// values, json and jsonb as they are, arrays as lists, everything else (int8 and
// numeric included, which JSON numbers would round) as its text.
func writeTyped(out *bytes.Buffer, text string, oid uint32) {
	if t, ok := types.TypeForOID(oid); ok {
		if ac, ok := t.Codec.(*pgtype.ArrayCodec); ok {
			var list bytes.Buffer
			if a := (&arrayParser{s: text, elem: ac.ElementType.OID, out: &list}); a.parse() {
				out.Write(list.Bytes())
				return
			}
		}
	}
	switch oid {
	case pgtype.BoolOID:
		out.WriteString(strconv.FormatBool(text == "t"))
		return
	case pgtype.Int2OID, pgtype.Int4OID:
		if _, err := strconv.ParseInt(text, 10, 32); err == nil {
			out.WriteString(text)
			return
		}
	case pgtype.Float4OID, pgtype.Float8OID:
		if f, err := strconv.ParseFloat(text, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			writeJSON(out, f)
			return
		}
	case pgtype.JSONOID, pgtype.JSONBOID:
		if json.Valid([]byte(text)) {
			out.WriteString(text)
			return
		}
	}
	writeJSON(out, text)
}

// arrayParser reads Postgres's text of an array ({1,2}, {{"a b",NULL}},
// [0:1]={1,2}) into a JSON list, its items typed as elem.
type arrayParser struct {
	s    string
	i    int
	elem uint32
	out  *bytes.Buffer
}

func (a *arrayParser) parse() bool {
	if strings.HasPrefix(a.s, "[") { // bounds, which JSON cannot show
		_, rest, ok := strings.Cut(a.s, "=")
		if !ok {
			return false
		}
		a.s = rest
	}
	a.s = strings.TrimSpace(a.s)
	return a.list() && a.i == len(a.s)
}

func (a *arrayParser) eat(c byte) bool {
	for a.i < len(a.s) && a.s[a.i] == ' ' {
		a.i++
	}
	if a.i < len(a.s) && a.s[a.i] == c {
		a.i++
		return true
	}
	return false
}

func (a *arrayParser) list() bool {
	if !a.eat('{') {
		return false
	}
	a.out.WriteByte('[')
	if a.eat('}') {
		a.out.WriteByte(']')
		return true
	}
	for n := 0; ; n++ {
		if n > 0 {
			a.out.WriteByte(',')
		}
		if !a.item() {
			return false
		}
		if a.eat('}') {
			a.out.WriteByte(']')
			return true
		}
		if !a.eat(',') {
			return false
		}
	}
}

func (a *arrayParser) item() bool {
	if a.i < len(a.s) && a.s[a.i] == '{' {
		return a.list()
	}
	if a.eat('"') {
		var b strings.Builder
		for a.i < len(a.s) {
			c := a.s[a.i]
			a.i++
			switch {
			case c == '"':
				writeTyped(a.out, b.String(), a.elem)
				return true
			case c == '\\' && a.i < len(a.s):
				b.WriteByte(a.s[a.i])
				a.i++
			default:
				b.WriteByte(c)
			}
		}
		return false
	}
	j := strings.IndexAny(a.s[a.i:], ",}")
	if j < 0 {
		return false
	}
	item := strings.TrimSpace(a.s[a.i : a.i+j])
	a.i += j
	if item == "NULL" {
		a.out.WriteString("null")
	} else {
		writeTyped(a.out, item, a.elem)
	}
	return true
}

// sqlErrorBody is the service's error answer: Postgres's error fields, null when
// Postgres gave none.
type sqlErrorBody struct {
	Message          string  `json:"message"`
	Code             string  `json:"code"`
	Detail           *string `json:"detail"`
	Hint             *string `json:"hint"`
	Position         *string `json:"position"`
	InternalPosition *string `json:"internalPosition"`
	InternalQuery    *string `json:"internalQuery"`
	Severity         *string `json:"severity"`
	Where            *string `json:"where"`
	Table            *string `json:"table"`
	Column           *string `json:"column"`
	Schema           *string `json:"schema"`
	DataType         *string `json:"dataType"`
	Constraint       *string `json:"constraint"`
	File             *string `json:"file"`
	Line             *string `json:"line"`
	Routine          *string `json:"routine"`
}

func pgErrorBody(e *pgconn.PgError) sqlErrorBody {
	s := func(v string) *string {
		if v == "" {
			return nil
		}
		return &v
	}
	n := func(v int32) *string {
		if v == 0 {
			return nil
		}
		return s(strconv.Itoa(int(v)))
	}
	return sqlErrorBody{Message: e.Message, Code: e.Code, Detail: s(e.Detail), Hint: s(e.Hint),
		Position: n(e.Position), InternalPosition: n(e.InternalPosition), InternalQuery: s(e.InternalQuery),
		Severity: s(e.Severity), Where: s(e.Where), Table: s(e.TableName), Column: s(e.ColumnName),
		Schema: s(e.SchemaName), DataType: s(e.DataTypeName), Constraint: s(e.ConstraintName),
		File: s(e.File), Line: n(e.Line), Routine: s(e.Routine)}
}
