package net.hopwise.voip.body;

import net.hopwise.voip.sip.SipHeaderName;
import net.hopwise.voip.sip.SipMessage;

/**
 * Where a SIP message's SDP is, if it has one: the whole body for {@code application/sdp}, or the
 * first {@code application/sdp} part of a {@code multipart/mixed} body (RFC 5621; SIPp's regression
 * suite sends SDP beside a PIDF-LO this way). {@link #withSdp(byte[])} gives the new whole body with
 * only the SDP replaced, for {@link net.hopwise.voip.sip.SipMessageEditor#replaceBody}.
 */
public final class SipBody {
    /** What the body holds, as far as the relay is concerned. */
    public enum Kind { NONE, SDP, MULTIPART_WITH_SDP, OTHER, MALFORMED_MULTIPART }

    private static final String SDP = "application/sdp";

    private final Kind kind;
    private final byte[] sdp;
    private final MultipartBody multipart;
    private final int part;
    private final MultipartError error;

    private SipBody(Kind kind, byte[] sdp, MultipartBody multipart, int part, MultipartError error) {
        this.kind = kind;
        this.sdp = sdp;
        this.multipart = multipart;
        this.part = part;
        this.error = error;
    }

    /** Reads the body of {@code message} (one copy of the body bytes). */
    public static SipBody of(SipMessage message) {
        if (message.bodyLength() == 0) {
            return new SipBody(Kind.NONE, null, null, -1, null);
        }
        String type = message.contentType();
        if (type == null) {
            return new SipBody(Kind.OTHER, null, null, -1, null);
        }
        byte[] bytes = new byte[message.bodyLength()];
        message.content().getBytes(message.content().readerIndex() + message.bodyIndex(), bytes);
        if (type.equals(SDP)) {
            return new SipBody(Kind.SDP, bytes, null, -1, null);
        }
        if (type.equals("multipart/mixed") || type.equals("multipart/related") || type.equals("multipart/alternative")) {
            MultipartBody.Result parsed = MultipartBody.parse(bytes, message.header(SipHeaderName.CONTENT_TYPE));
            if (!parsed.isOk()) {
                return new SipBody(Kind.MALFORMED_MULTIPART, null, null, -1, parsed.error());
            }
            int index = parsed.body().find(SDP);
            if (index >= 0) {
                return new SipBody(Kind.MULTIPART_WITH_SDP, parsed.body().content(index), parsed.body(), index, null);
            }
        }
        return new SipBody(Kind.OTHER, null, null, -1, null);
    }

    public Kind kind() {
        return kind;
    }

    /** Whether there is an SDP to rewrite. */
    public boolean hasSdp() {
        return sdp != null;
    }

    /** The SDP bytes (a copy), or null. */
    public byte[] sdp() {
        return sdp == null ? null : sdp.clone();
    }

    /** Why a multipart body could not be read, or null. */
    public MultipartError multipartError() {
        return error;
    }

    /** The whole new body with the SDP replaced by {@code newSdp}; everything else as it was. */
    public byte[] withSdp(byte[] newSdp) {
        if (kind == Kind.SDP) {
            return newSdp.clone();
        }
        if (kind == Kind.MULTIPART_WITH_SDP) {
            return multipart.replace(part, newSdp);
        }
        throw new IllegalStateException("no SDP in this body: " + kind);
    }
}
