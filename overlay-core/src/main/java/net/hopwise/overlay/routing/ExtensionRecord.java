package net.hopwise.overlay.routing;

import java.util.Arrays;
import java.util.Objects;
import net.hopwise.overlay.NodeId;

/**
 * One version of one origin's link-state extension record of one kind: the opaque bytes a module
 * publishes (multicast membership, for example), or its withdrawal. Flooded, ordered, aged and
 * collected like a {@link LinkStateAdvertisement}: the higher sequence wins, two different copies
 * with one sequence are ordered by {@link #compareContent}, and a copy expires maxAge after its origin
 * created it. A withdrawal is kept, like a record, until it ages out, so that no older copy still in
 * flight can bring the record back.
 *
 * @param origin the node that published it
 * @param kind which module's record: 1 to 65535
 * @param sequence version, 0 or more; one origin's versions of all kinds share one counter
 * @param ageMillis age of this copy when written, 0 or more
 * @param data the record's bytes (at most 65534), or null for a withdrawal; never copied, never changed
 * @param signature the origin's signature over the version (see {@link net.hopwise.overlay.spi.LinkStateSigner}),
 *     1 to 255 bytes, or null where link state is not signed; never copied, never changed
 */
public record ExtensionRecord(NodeId origin, int kind, long sequence, int ageMillis, byte[] data, byte[] signature) {
    /** An unsigned version. */
    public ExtensionRecord(NodeId origin, int kind, long sequence, int ageMillis, byte[] data) {
        this(origin, kind, sequence, ageMillis, data, null);
    }

    /** The lowest kind: 0 is reserved, so that an all-zero cell is never a valid record. */
    public static final int MIN_KIND = 1;
    /** The highest kind: the wire carries kinds in 16 bits. */
    public static final int MAX_KIND = 0xFFFF;
    /** The longest record the wire can describe: 0xFFFF in the length field marks a withdrawal. */
    public static final int MAX_DATA_BYTES = 0xFFFE;

    public ExtensionRecord {
        Objects.requireNonNull(origin, "origin");
        requireKind(kind);
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence must be 0 or more: " + sequence);
        }
        if (ageMillis < 0) {
            throw new IllegalArgumentException("age must be 0 or more: " + ageMillis);
        }
        if (data != null && data.length > MAX_DATA_BYTES) {
            throw new IllegalArgumentException("a record holds at most " + MAX_DATA_BYTES + " bytes: " + data.length);
        }
        if (signature != null && (signature.length == 0 || signature.length > LinkStateAdvertisement.MAX_SIGNATURE_BYTES)) {
            throw new IllegalArgumentException("a signature is 1 to " + LinkStateAdvertisement.MAX_SIGNATURE_BYTES
                    + " bytes: " + signature.length);
        }
    }

    /** Throws {@link IllegalArgumentException} unless {@code kind} is 1 to 65535. */
    public static int requireKind(int kind) {
        if (kind < MIN_KIND || kind > MAX_KIND) {
            throw new IllegalArgumentException("an extension kind is 1 to 65535: " + kind);
        }
        return kind;
    }

    /** Whether this version withdraws the record. */
    public boolean withdrawn() {
        return data == null;
    }

    /** This version with another age. */
    public ExtensionRecord withAgeMillis(int age) {
        return age == ageMillis ? this : new ExtensionRecord(origin, kind, sequence, age, data, signature);
    }

    /** This version with {@code signature} (null: unsigned); the array is never copied or changed. */
    public ExtensionRecord withSignature(byte[] signature) {
        return new ExtensionRecord(origin, kind, sequence, ageMillis, data, signature);
    }

    /** Same origin, kind, sequence and content; the age may differ. */
    public boolean sameVersionAs(ExtensionRecord other) {
        return origin.equals(other.origin) && kind == other.kind && sequence == other.sequence
                && Arrays.equals(data, other.data);
    }

    /**
     * A total order on the content of two versions with the same origin, kind and sequence, the same on
     * every node (a withdrawal first, then the bytes unsigned), so every node keeps the same one of two
     * different copies with one sequence.
     */
    static int compareContent(ExtensionRecord x, ExtensionRecord y) {
        if (x.data == null || y.data == null) {
            return Boolean.compare(x.data != null, y.data != null);
        }
        return Arrays.compareUnsigned(x.data, y.data);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExtensionRecord r && sameVersionAs(r) && ageMillis == r.ageMillis
                && Arrays.equals(signature, r.signature);
    }

    @Override
    public int hashCode() {
        return (Objects.hash(origin, kind, sequence, ageMillis) * 31 + Arrays.hashCode(data)) * 31
                + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return "ExtensionRecord{" + origin + ", kind " + kind + ", seq " + sequence + ", age " + ageMillis + " ms, "
                + (data == null ? "withdrawn" : data.length + " bytes")
                + (signature == null ? "" : ", signed") + '}';
    }
}
