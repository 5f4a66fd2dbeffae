import Testing
@testable import GestureCore

/// A kind's own values (``KindValues``): numbers set and unset one by one, compared and hashed
/// by what is set, and a transform's matrix kept in them and written by its own file.
@Suite struct KindValuesTests {
    @Test func numbersAreSetAndUnsetOneByOne() {
        var own = KindValues()
        #expect((0..<KindValues.capacity).allSatisfy { own[$0] == nil })
        own[3] = -2.5
        own[7] = 0
        #expect(own[3] == -2.5 && own[7] == 0 && own[0] == nil)
        own[3] = nil
        #expect(own[3] == nil && own[7] == 0)
    }

    @Test func equalityLooksOnlyAtWhatIsSet() {
        var a = KindValues(), b = KindValues()
        a[1] = 4
        a[1] = nil // the number stays in the storage, unset
        #expect(a == b && a.hashValue == b.hashValue)
        a[2] = 1
        b[2] = 1
        #expect(a == b)
        b[2] = 1.5
        #expect(a != b)
    }

    @Test func aTransformsMatrixIsItsOwnValue() {
        var values = GestureValues()
        #expect(values.matrix == nil)
        let m = AffineMatrix(a: 2, b: 0.5, c: -0.5, d: 2, tx: -450, ty: 12.25)
        values.matrix = m
        #expect(values.matrix == m && values.scale == nil)
        values.matrix = nil
        #expect(values.matrix == nil && values == GestureValues())
    }

    /// The values are written by the kind: a transform names its two rates apart and adds its
    /// matrix; a pinch's one rate is `velocity`.
    @Test func eachKindWritesItsValues() {
        var values = GestureValues()
        values.scale = 2
        values.scaleVelocity = 1
        values.rotationVelocity = 0.5
        values.matrix = AffineMatrix(a: 2, b: 0, c: 0, d: 2, tx: 1, ty: 2)
        #expect(written(values, by: TransformRecognizer.self)
                == #","scale":2.0,"scaleVelocity":1.0,"rotationVelocity":0.5,"matrix":[2.0,0.0,0.0,2.0,1.0,2.0]"#)
        values.rotationVelocity = nil
        values.matrix = nil
        #expect(written(values, by: PinchRecognizer.self) == #","scale":2.0,"velocity":1.0"#)
    }

    private func written(_ values: GestureValues, by kind: any RecognizerKindMachine.Type) -> String {
        var writer = JSONWriter()
        writer.withLine(room: 1024) { out in kind.encodeValues(values, &out) }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
