package net.hopwise.overlay.routing;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;

/**
 * Bodies of {@code LINK_STATE_UPDATE} and {@code LINK_STATE_ACK} packets, in network byte order.
 *
 * <pre>
 * update body:
 *   u16 advertisement count
 *   per advertisement:
 *     i64 origin         i64 sequence (0 or more)     u32 age in ms (at most 2^31 - 1)
 *     u8  name length    name (1..64 bytes, the characters NodeId allows)
 *     u8  link count (0..255)
 *     per link (16 bytes): i64 neighbour   u32 latency in us (at most 2^31 - 1)   u32 loss in ppm (at most 10^6)
 *     where the age's top bit is set (the age itself is the low 31 bits): u8 n (1..255), n bytes of
 *       the origin's signature (see {@link net.hopwise.overlay.spi.LinkStateSigner}); a node of a
 *       version without signatures reads such an age as out of range and drops the update as malformed
 *
 * ack body:
 *   u16 entry count
 *   per entry (16 bytes): i64 origin   i64 sequence
 * </pre>
 *
 * <p>A 16-byte link cell, like Spines' edge cell, puts about 65 links in one 1172-byte body.
 *
 * <p>Decoding is total: any bytes give either a value or null, never an exception. The format is
 * canonical (no padding, no trailing bytes, every field checked), so a decoded value re-encodes to
 * exactly the bytes it came from. Decoders read with absolute indices between the reader and
 * writer index, leave both indices as they were, and neither retain nor release the buffer.
 */
public final class LinkStateCodec {
    /** The advertisement count before the advertisements. */
    public static final int UPDATE_HEADER_BYTES = 2;
    /** Origin, sequence, age, name length and link count; the name and links follow. */
    public static final int ADVERTISEMENT_HEADER_BYTES = 8 + 8 + 4 + 1 + 1;
    /** One link cell. */
    public static final int LINK_BYTES = 16;
    /** The entry count before the entries. */
    public static final int ACK_HEADER_BYTES = 2;
    /** One ack entry. */
    public static final int ACK_ENTRY_BYTES = 16;
    /** The count fields are 16 bits. */
    public static final int MAX_COUNT = 0xFFFF;

    /** Keeps an advertisement's signature from ever standing for an extension record, or for anything else signed with the key. */
    private static final byte[] SIGNED_TAG = "hopwise link-state advertisement v1\0".getBytes(StandardCharsets.US_ASCII);

    private LinkStateCodec() {}

    /** Bytes {@code a} takes in an update body. */
    public static int encodedSize(LinkStateAdvertisement a) {
        return ADVERTISEMENT_HEADER_BYTES + a.originName().length() + LINK_BYTES * a.links().size()
                + SignatureField.size(a.signature());
    }

    /** Bytes the body of {@code u} takes. */
    public static int encodedSize(LinkStateUpdate u) {
        int size = UPDATE_HEADER_BYTES;
        for (LinkStateAdvertisement a : u.advertisements()) {
            size += encodedSize(a);
        }
        return size;
    }

    /** Bytes the body of {@code a} takes. */
    public static int encodedSize(LinkStateAck a) {
        return ACK_HEADER_BYTES + ACK_ENTRY_BYTES * a.entries().size();
    }

    /** Writes the body of {@code u} at the writer index. */
    public static void encodeUpdate(LinkStateUpdate u, ByteBuf out) {
        List<LinkStateAdvertisement> ads = u.advertisements();
        if (ads.size() > MAX_COUNT) {
            throw new IllegalArgumentException("an update holds at most " + MAX_COUNT + " advertisements");
        }
        out.writeShort(ads.size());
        for (LinkStateAdvertisement a : ads) {
            out.writeLong(a.origin().value());
            out.writeLong(a.sequence());
            out.writeInt(SignatureField.age(a.ageMillis(), a.signature()));
            writeNameAndLinks(a, out);
            SignatureField.write(a.signature(), out);
        }
    }

    private static void writeNameAndLinks(LinkStateAdvertisement a, ByteBuf out) {
        // Valid names are ASCII, so their UTF-8 form is one byte per character.
        out.writeByte(a.originName().length());
        out.writeCharSequence(a.originName(), StandardCharsets.US_ASCII);
        out.writeByte(a.links().size());
        for (LinkStateAdvertisement.Link link : a.links()) {
            out.writeLong(link.neighbour().value());
            out.writeInt(link.cost().latencyMicros());
            out.writeInt(link.cost().lossPpm());
        }
    }

    /**
     * What the origin signs for {@code a}: a domain tag, then origin, sequence, name and links as the
     * wire has them; not the age, which grows on the way.
     */
    public static byte[] signedContent(LinkStateAdvertisement a) {
        ByteBuf b = io.netty.buffer.Unpooled.buffer(SIGNED_TAG.length + 16 + 2 + a.originName().length()
                + LINK_BYTES * a.links().size());
        b.writeBytes(SIGNED_TAG);
        b.writeLong(a.origin().value());
        b.writeLong(a.sequence());
        writeNameAndLinks(a, b);
        byte[] content = new byte[b.readableBytes()];
        b.readBytes(content);
        return content;
    }

    /** The update in {@code body}'s readable bytes, or null if they are not exactly one valid update. */
    public static LinkStateUpdate decodeUpdate(ByteBuf body) {
        int p = body.readerIndex();
        int end = body.writerIndex();
        if (end - p < UPDATE_HEADER_BYTES) {
            return null;
        }
        int count = body.getUnsignedShort(p);
        p += UPDATE_HEADER_BYTES;
        if (count > (end - p) / (ADVERTISEMENT_HEADER_BYTES + 1)) {
            return null;
        }
        List<LinkStateAdvertisement> ads = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            if (end - p < ADVERTISEMENT_HEADER_BYTES + 1) {
                return null;
            }
            long origin = body.getLong(p);
            long sequence = body.getLong(p + 8);
            long age = body.getUnsignedInt(p + 16);
            boolean signed = (age & SignatureField.SIGNED) != 0;
            age &= Integer.MAX_VALUE;
            int nameLength = body.getUnsignedByte(p + 20);
            if (origin == 0 || sequence < 0 || !validName(body, p + 21, nameLength, end)) {
                return null;
            }
            String name = body.toString(p + 21, nameLength, StandardCharsets.US_ASCII);
            p += 21 + nameLength;
            if (p >= end) {
                return null;
            }
            int linkCount = body.getUnsignedByte(p);
            p++;
            if (linkCount > (end - p) / LINK_BYTES) {
                return null;
            }
            long[] neighbourIds = new long[linkCount];
            List<LinkStateAdvertisement.Link> links = new ArrayList<>(linkCount);
            for (int k = 0; k < linkCount; k++, p += LINK_BYTES) {
                long neighbour = body.getLong(p);
                long latency = body.getUnsignedInt(p + 8);
                long loss = body.getUnsignedInt(p + 12);
                if (neighbour == 0 || neighbour == origin || latency > Integer.MAX_VALUE || loss > LinkCost.MAX_LOSS_PPM) {
                    return null;
                }
                neighbourIds[k] = neighbour;
                links.add(new LinkStateAdvertisement.Link(new NodeId(neighbour), new LinkCost((int) latency, (int) loss)));
            }
            if (LinkStateAdvertisement.hasDuplicate(neighbourIds)) {
                return null;
            }
            byte[] signature = null;
            if (signed) {
                signature = SignatureField.read(body, p, end);
                if (signature == null) {
                    return null;
                }
                p += SignatureField.size(signature);
            }
            ads.add(new LinkStateAdvertisement(new NodeId(origin), name, sequence, (int) age, links, signature));
        }
        return p == end ? new LinkStateUpdate(ads) : null;
    }

    /** Writes the body of {@code a} at the writer index. */
    public static void encodeAck(LinkStateAck a, ByteBuf out) {
        List<LinkStateAck.AckEntry> entries = a.entries();
        if (entries.size() > MAX_COUNT) {
            throw new IllegalArgumentException("an ack holds at most " + MAX_COUNT + " entries");
        }
        out.writeShort(entries.size());
        for (LinkStateAck.AckEntry e : entries) {
            out.writeLong(e.origin().value());
            out.writeLong(e.sequence());
        }
    }

    /** The ack in {@code body}'s readable bytes, or null if they are not exactly one valid ack. */
    public static LinkStateAck decodeAck(ByteBuf body) {
        int p = body.readerIndex();
        int end = body.writerIndex();
        if (end - p < ACK_HEADER_BYTES) {
            return null;
        }
        int count = body.getUnsignedShort(p);
        p += ACK_HEADER_BYTES;
        if (end - p != count * ACK_ENTRY_BYTES) {
            return null;
        }
        List<LinkStateAck.AckEntry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++, p += ACK_ENTRY_BYTES) {
            long origin = body.getLong(p);
            long sequence = body.getLong(p + 8);
            if (origin == 0 || sequence < 0) {
                return null;
            }
            entries.add(new LinkStateAck.AckEntry(new NodeId(origin), sequence));
        }
        return new LinkStateAck(entries);
    }

    /** The rule of {@link NodeId#requireValidName}, checked in place without throwing. */
    private static boolean validName(ByteBuf body, int from, int length, int end) {
        if (length < 1 || length > NodeId.MAX_NAME_LENGTH || length > end - from) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            int c = body.getUnsignedByte(from + i);
            boolean alphanumeric = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            if (!alphanumeric && (i == 0 || (c != '.' && c != '_' && c != '-'))) {
                return false;
            }
        }
        return true;
    }
}
