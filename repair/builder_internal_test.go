package repair

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica"
)

// setCell copies field by field, so a field added to replica.Cell must be
// added to it too: this fills every field and checks that all arrive.
func TestSetCellCopiesEveryField(t *testing.T) {
	var c replica.Cell
	v := reflect.ValueOf(&c).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("s")
		case reflect.Slice:
			f.SetBytes([]byte("v"))
		case reflect.Int32, reflect.Int64:
			f.SetInt(int64(i + 1))
		case reflect.Bool:
			f.SetBool(true)
		default:
			t.Fatalf("field %s of kind %s: teach this test to fill it", v.Type().Field(i).Name, f.Kind())
		}
	}
	var dst replica.Cell
	setCell(&dst, &c, c.Value)
	assert.Equal(t, c, dst)
}
