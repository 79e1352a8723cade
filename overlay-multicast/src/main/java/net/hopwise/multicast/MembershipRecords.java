package net.hopwise.multicast;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * How a node's joined groups travel in link state: spread over a number of buckets, one record each,
 * of kinds {@link #FIRST_KIND} and up, group g in bucket g mod buckets (unsigned), each record
 *
 * <pre>
 *  0  u8  format: 1
 *  1  i64 group id, n times, strictly ascending (unsigned)
 * </pre>
 *
 * <p>A record per bucket rather than one per (node, group): the SPI keeps one record per (origin,
 * kind) and bounds an origin to maxExtensionsPerOrigin kinds, so a node's whole membership must fit
 * in that many records; splitting it by hash keeps each join or leave a re-flood of one bucket rather
 * than of all. A node uses half the kinds it may hold ({@link #buckets}), leaving the rest to other
 * modules: 8 with the default 16, enough for about 1,000 groups per node; 2,048 (maxExtensionsPerOrigin
 * 4,096 on every node) for 150,000. A bucket holds (maxExtensionBytes - 1) / 8 groups: 127 with the
 * default 1024 bytes, and a join whose bucket is full is refused. An empty bucket is withdrawn rather
 * than published empty.
 *
 * <p>A receiver does not check that a record's groups belong to its bucket: the number of buckets is
 * the origin's own setting, and the view counts a group an origin lists twice (while a restarted node
 * replaces its previous life's records) as two listings, so nothing depends on it.
 */
final class MembershipRecords {
    /** 0x4D00 ('M' and 0) to 0x54FF: a kind range no other module of the project uses (VoIP's is 0x5652). */
    static final int FIRST_KIND = 0x4D00;
    /** The most buckets a node uses: the size of the kind range. */
    static final int MAX_BUCKETS = 2048;
    static final int FORMAT = 1;
    static final int HEADER = 1;
    static final int ENTRY = 8;

    private MembershipRecords() {}

    /** The buckets of a node that may hold {@code maxExtensionsPerOrigin} kinds: half of them, 1 to {@link #MAX_BUCKETS}. */
    static int buckets(int maxExtensionsPerOrigin) {
        return Math.max(1, Math.min(MAX_BUCKETS, maxExtensionsPerOrigin / 2));
    }

    static int bucket(GroupId group, int buckets) {
        return bucket(group.value(), buckets);
    }

    static int bucket(long group, int buckets) {
        return (int) Long.remainderUnsigned(group, buckets);
    }

    static int kind(int bucket) {
        return FIRST_KIND + bucket;
    }

    /** Groups one record holds when records hold at most {@code maxRecordBytes}. */
    static int capacity(int maxRecordBytes) {
        return Math.max(0, (maxRecordBytes - HEADER) / ENTRY);
    }

    /** The record of groups given in any order. */
    static byte[] encode(Collection<GroupId> groups) {
        long[] ids = groups.stream().mapToLong(GroupId::value).toArray();
        // Unsigned order, so the record of a set is one byte string whatever the order of joins.
        for (int i = 0; i < ids.length; i++) {
            ids[i] ^= Long.MIN_VALUE;
        }
        Arrays.sort(ids);
        for (int i = 0; i < ids.length; i++) {
            ids[i] ^= Long.MIN_VALUE;
        }
        return encode(ids);
    }

    /** The record of group ids already in unsigned ascending order. */
    static byte[] encode(long[] ascending) {
        ByteBuffer out = ByteBuffer.allocate(HEADER + ENTRY * ascending.length);
        out.put((byte) FORMAT);
        for (long id : ascending) {
            out.putLong(id);
        }
        return out.array();
    }

    /**
     * The group ids of a record, unsigned ascending.
     *
     * @return null when the record is malformed: another format, a length that is not whole entries,
     *     an id 0, or ids out of order or repeated
     */
    static long[] decodeIds(byte[] record) {
        if (record.length < HEADER || record[0] != FORMAT || (record.length - HEADER) % ENTRY != 0) {
            return null;
        }
        ByteBuffer in = ByteBuffer.wrap(record, HEADER, record.length - HEADER);
        long[] ids = new long[(record.length - HEADER) / ENTRY];
        for (int i = 0; i < ids.length; i++) {
            long id = in.getLong();
            if (id == 0 || (i > 0 && Long.compareUnsigned(id, ids[i - 1]) <= 0)) {
                return null;
            }
            ids[i] = id;
        }
        return ids;
    }

    /** The groups of a record, or null when it is malformed (see {@link #decodeIds}). */
    static List<GroupId> decode(byte[] record) {
        long[] ids = decodeIds(record);
        return ids == null ? null : Arrays.stream(ids).mapToObj(GroupId::new).toList();
    }
}
