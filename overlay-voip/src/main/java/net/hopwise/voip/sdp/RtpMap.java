package net.hopwise.voip.sdp;

/**
 * What an RTP payload type number stands for: its encoding and the clock its timestamps count in.
 * Dynamic types (96-127) get theirs from an {@code a=rtpmap:<type> <encoding>/<clock rate>[/<parameters>]}
 * line of the m= section (RFC 8866 section 6.6); static types from RFC 3551's tables, which an rtpmap
 * may repeat. The clock rate is not always the sampling rate: G.722 samples at 16 kHz but counts at
 * 8000 (RFC 3551 section 4.5.2), opus counts at 48000 whatever it samples (RFC 7587 section 4.1).
 *
 * @param payloadType 0-127
 * @param encoding the encoding name as written ("PCMU", "opus"); compare ignoring case (RFC 4855)
 * @param clockRate timestamp units per second
 */
public record RtpMap(int payloadType, String encoding, int clockRate) {
    /** The audio and video payload types RFC 3551 assigns statically (tables 4 and 5), by number. */
    private static final RtpMap[] STATIC = new RtpMap[128];

    static {
        assign(0, "PCMU", 8000);
        assign(3, "GSM", 8000);
        assign(4, "G723", 8000);
        assign(5, "DVI4", 8000);
        assign(6, "DVI4", 16000);
        assign(7, "LPC", 8000);
        assign(8, "PCMA", 8000);
        assign(9, "G722", 8000);
        assign(10, "L16", 44100);
        assign(11, "L16", 44100);
        assign(12, "QCELP", 8000);
        assign(13, "CN", 8000);
        assign(14, "MPA", 90000);
        assign(15, "G728", 8000);
        assign(16, "DVI4", 11025);
        assign(17, "DVI4", 22050);
        assign(18, "G729", 8000);
        assign(25, "CelB", 90000);
        assign(26, "JPEG", 90000);
        assign(28, "nv", 90000);
        assign(31, "H261", 90000);
        assign(32, "MPV", 90000);
        assign(33, "MP2T", 90000);
        assign(34, "H263", 90000);
    }

    private static void assign(int type, String encoding, int clockRate) {
        STATIC[type] = new RtpMap(type, encoding, clockRate);
    }

    /** RFC 3551's static assignment of {@code payloadType}, or null for a dynamic, unassigned or invalid one. */
    public static RtpMap ofStatic(int payloadType) {
        return payloadType >= 0 && payloadType < STATIC.length ? STATIC[payloadType] : null;
    }

    /** {@code encoding/clockRate}, as an rtpmap writes it without its parameters. */
    @Override
    public String toString() {
        return encoding + "/" + clockRate;
    }

    /**
     * Reads an rtpmap attribute's value ({@code 111 opus/48000/2}); null when it is not one, as a
     * relay passes a description it cannot fully read rather than refuse the call.
     */
    static RtpMap parse(String value) {
        if (value == null) {
            return null;
        }
        int space = value.indexOf(' ');
        if (space < 0) {
            return null;
        }
        long type = SdpParser.number(value.substring(0, space), 3);
        String format = value.substring(space + 1).trim();
        int slash = format.indexOf('/');
        if (type < 0 || type > 127 || slash <= 0) {
            return null;
        }
        int end = format.indexOf('/', slash + 1);
        long clock = SdpParser.number(format.substring(slash + 1, end < 0 ? format.length() : end), 9);
        if (clock <= 0) {
            return null;
        }
        return new RtpMap((int) type, format.substring(0, slash), (int) clock);
    }
}
