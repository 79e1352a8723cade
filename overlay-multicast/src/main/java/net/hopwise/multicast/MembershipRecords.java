package net.hopwise.multicast;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * How a node's joined groups travel in link state: spread over {@link #BUCKETS} records of kinds
 * {@link #FIRST_KIND} and up, group g in bucket g mod BUCKETS, each record
 *
 * <pre>
 *  0  u8  format: 1
 *  1  i64 group id, n times, strictly ascending (unsigned), each in the record's bucket
 * </pre>
 *
 * <p>A record per bucket rather than one per (node, group): the SPI keeps one record per (origin,
 * kind) and bounds an origin to a few kinds, so a node's whole membership must fit in a few records;
 * splitting it by hash keeps each join or leave a re-flood of one bucket (an eighth of the groups)
 * rather than of all. A bucket holds (maxExtensionBytes - 1) / 8 groups: 127 with the default 1024
 * bytes, so about 1000 groups per node when they spread evenly, and a join whose bucket is full is
 * refused. An empty bucket is withdrawn rather than published empty.
 */
final class MembershipRecords {
    /**
     * 8 kinds: half of the 16 an origin may hold by default, leaving the rest to other modules, and
     * enough that a node's groups spread evenly over them up to about a thousand.
     */
    static final int BUCKETS = 8;
    /** 0x4D00 ('M' and 0): a kind range no other module of the project uses. */
    static final int FIRST_KIND = 0x4D00;
    static final int FORMAT = 1;
    static final int ENTRY = 8;

    private MembershipRecords() {}

    static int bucket(GroupId group) {
        return (int) Long.remainderUnsigned(group.value(), BUCKETS);
    }

    static int kind(int bucket) {
        return FIRST_KIND + bucket;
    }

    /** The bucket of a kind, or -1 when the kind is not one of the module's. */
    static int bucketOfKind(int kind) {
        int b = kind - FIRST_KIND;
        return b >= 0 && b < BUCKETS ? b : -1;
    }

    /** Groups one record holds when records hold at most {@code maxRecordBytes}. */
    static int capacity(int maxRecordBytes) {
        return Math.max(0, (maxRecordBytes - 1) / ENTRY);
    }

    static byte[] encode(Collection<GroupId> groups) {
        long[] ids = groups.stream().mapToLong(GroupId::value).toArray();
        // Unsigned order, so the record of a set is one byte string whatever the order of joins.
        for (int i = 0; i < ids.length; i++) {
            ids[i] ^= Long.MIN_VALUE;
        }
        Arrays.sort(ids);
        ByteBuffer out = ByteBuffer.allocate(1 + ENTRY * ids.length);
        out.put((byte) FORMAT);
        for (long id : ids) {
            out.putLong(id ^ Long.MIN_VALUE);
        }
        return out.array();
    }

    /**
     * The groups of a record of a bucket.
     *
     * @return null when the record is malformed: another format, a length that is not whole entries,
     *     an id 0, ids out of order or repeated, or an id of another bucket
     */
    static List<GroupId> decode(int bucket, byte[] record) {
        if (record.length < 1 || record[0] != FORMAT || (record.length - 1) % ENTRY != 0) {
            return null;
        }
        ByteBuffer in = ByteBuffer.wrap(record, 1, record.length - 1);
        List<GroupId> groups = new ArrayList<>((record.length - 1) / ENTRY);
        long previous = 0;
        while (in.hasRemaining()) {
            long id = in.getLong();
            if (id == 0 || (!groups.isEmpty() && Long.compareUnsigned(id, previous) <= 0)) {
                return null;
            }
            GroupId g = new GroupId(id);
            if (bucket(g) != bucket) {
                return null;
            }
            groups.add(g);
            previous = id;
        }
        return groups;
    }
}
