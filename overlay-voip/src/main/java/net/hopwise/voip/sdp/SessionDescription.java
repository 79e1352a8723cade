package net.hopwise.voip.sdp;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A parsed SDP body (RFC 8866, offer/answer per RFC 3264) kept as its bytes plus the offsets of
 * every line, so that {@link SdpRewriter} can emit a new body in which every line it does not
 * rewrite is the same bytes as before: order, unknown lines and attributes, line ends (CRLF, LF, a
 * missing final one) included. Parsing is total: a malformed body gives an {@link SdpParseError}.
 *
 * <p>Line order is not enforced beyond v= first and one o= before the first m=, because deployed
 * phones are loose about it and a relay only has to rewrite, not judge.
 */
public final class SessionDescription {
    /** More lines than any real description (a video call with ICE has well under 200). */
    public static final int MAX_LINES = 1024;

    private final byte[] bytes;
    private final List<SdpLine> lines;
    private final Origin origin;
    private final int originLine;
    private final Connection connection;
    private final MediaDirection direction;
    private final List<MediaDescription> media;

    SessionDescription(byte[] bytes, List<SdpLine> lines, Origin origin, int originLine, Connection connection,
            MediaDirection direction, List<MediaDescription> media) {
        this.bytes = bytes;
        this.lines = Collections.unmodifiableList(lines);
        this.origin = origin;
        this.originLine = originLine;
        this.connection = connection;
        this.direction = direction;
        this.media = Collections.unmodifiableList(media);
    }

    /** Parses a copy of {@code length} bytes of {@code buf} from absolute {@code index}. */
    public static SdpParseResult parse(ByteBuf buf, int index, int length) {
        byte[] copy = new byte[length];
        buf.getBytes(index, copy);
        return SdpParser.parse(copy);
    }

    /** Parses {@code body}, which the result keeps (the caller must not change it afterwards). */
    public static SdpParseResult parse(byte[] body) {
        return SdpParser.parse(body);
    }

    /** The body as parsed. */
    public byte[] bytes() {
        return bytes.clone();
    }

    byte[] raw() {
        return bytes;
    }

    public List<SdpLine> lines() {
        return lines;
    }

    /** Text of a line's value (after {@code x=}), UTF-8. */
    public String value(SdpLine line) {
        return new String(bytes, line.valueStart(), line.end() - line.valueStart(), StandardCharsets.UTF_8);
    }

    public Origin origin() {
        return origin;
    }

    int originLine() {
        return originLine;
    }

    /** The session-level c=, or null. */
    public Connection connection() {
        return connection;
    }

    /** The session-level direction attribute, or null. */
    public MediaDirection sessionDirection() {
        return direction;
    }

    public List<MediaDescription> media() {
        return media;
    }

    /** The c= that applies to media {@code i}: its own, else the session's; null when neither exists. */
    public Connection connection(int i) {
        Connection own = media.get(i).connection();
        return own != null ? own : connection;
    }

    /** The direction that applies to media {@code i}: its own attribute, else the session's, else sendrecv. */
    public MediaDirection direction(int i) {
        MediaDirection own = media.get(i).direction();
        return own != null ? own : direction != null ? direction : MediaDirection.SENDRECV;
    }

    /**
     * Whether media {@code i} is put on hold by this description: sendonly or inactive (RFC 3264
     * section 8.4), or the RFC 2543 connection address 0.0.0.0. A rejected stream (port 0) is not held.
     */
    public boolean isHeld(int i) {
        if (media.get(i).port() == 0) {
            return false;
        }
        MediaDirection d = direction(i);
        Connection c = connection(i);
        return d == MediaDirection.SENDONLY || d == MediaDirection.INACTIVE || (c != null && c.isUnspecified());
    }

    /** Whether every active stream is held (and there is at least one): the relay's cue for its long media timeout. */
    public boolean onHold() {
        boolean any = false;
        for (int i = 0; i < media.size(); i++) {
            if (media.get(i).port() == 0) {
                continue;
            }
            if (!isHeld(i)) {
                return false;
            }
            any = true;
        }
        return any;
    }

    /** Whether any ICE attribute (RFC 8839) is present, which lets media bypass the relay unless stripped. */
    public boolean hasIce() {
        for (SdpLine line : lines) {
            if (line.type() == 'a' && SdpAttributes.isIce(bytes, line)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SessionDescription other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    static List<SdpLine> newLines() {
        return new ArrayList<>();
    }
}
