package net.hopwise.voip.sip;

import java.util.Locale;

/**
 * The header fields the relay reads or writes, with their compact forms (RFC 3261 section 7.3.3
 * and the IANA registry) and the two properties that matter to a parser: whether the grammar
 * allows several comma-separated values in one field, and whether a message may carry at most one.
 */
public enum SipHeaderName {
    VIA("Via", 'v', true, false),
    FROM("From", 'f', false, true),
    TO("To", 't', false, true),
    CALL_ID("Call-ID", 'i', false, true),
    CSEQ("CSeq", '\0', false, true),
    CONTACT("Contact", 'm', true, false),
    MAX_FORWARDS("Max-Forwards", '\0', false, true),
    CONTENT_LENGTH("Content-Length", 'l', false, true),
    CONTENT_TYPE("Content-Type", 'c', false, true),
    CONTENT_ENCODING("Content-Encoding", 'e', true, false),
    ROUTE("Route", '\0', true, false),
    RECORD_ROUTE("Record-Route", '\0', true, false),
    SUPPORTED("Supported", 'k', true, false),
    REQUIRE("Require", '\0', true, false),
    PROXY_REQUIRE("Proxy-Require", '\0', true, false),
    SUBJECT("Subject", 's', false, false),
    EVENT("Event", 'o', false, false),
    ALLOW_EVENTS("Allow-Events", 'u', true, false),
    REFER_TO("Refer-To", 'r', false, false),
    REFERRED_BY("Referred-By", 'b', false, false),
    ACCEPT_CONTACT("Accept-Contact", 'a', true, false),
    REJECT_CONTACT("Reject-Contact", 'j', true, false),
    REQUEST_DISPOSITION("Request-Disposition", 'd', true, false),
    SESSION_EXPIRES("Session-Expires", 'x', false, false),
    IDENTITY("Identity", 'y', false, false),
    IDENTITY_INFO("Identity-Info", 'n', false, false),
    PATH("Path", '\0', true, false),
    FLOW_TIMER("Flow-Timer", '\0', false, false);

    private static final SipHeaderName[] BY_COMPACT = new SipHeaderName[128];

    static {
        for (SipHeaderName name : values()) {
            if (name.compact != '\0') {
                BY_COMPACT[name.compact] = name;
            }
        }
    }

    private final String canonical;
    private final byte[] lower;
    private final char compact;
    private final boolean commaList;
    private final boolean singleton;

    SipHeaderName(String canonical, char compact, boolean commaList, boolean singleton) {
        this.canonical = canonical;
        this.lower = canonical.toLowerCase(Locale.ROOT).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        this.compact = compact;
        this.commaList = commaList;
        this.singleton = singleton;
    }

    /** The long form as a writer emits it. */
    public String canonical() {
        return canonical;
    }

    /** The one-letter form, or {@code '\0'} when the header has none. */
    public char compact() {
        return compact;
    }

    /** Whether one field line may hold several values separated by commas. */
    public boolean commaList() {
        return commaList;
    }

    /** Whether a message may carry this header at most once. */
    public boolean singleton() {
        return singleton;
    }

    /** Case-insensitive lookup of a name in either form; {@code null} for a header the relay ignores. */
    public static SipHeaderName of(CharSequence name) {
        byte[] bytes = new byte[name.length()];
        for (int i = 0; i < bytes.length; i++) {
            char c = name.charAt(i);
            bytes[i] = c < 128 ? (byte) c : (byte) '?';
        }
        return lookup(ByteView.of(bytes), 0, bytes.length);
    }

    static SipHeaderName lookup(ByteView view, int from, int to) {
        int length = to - from;
        if (length == 1) {
            int c = toLower(view.at(from));
            return c < 128 ? BY_COMPACT[c] : null;
        }
        for (SipHeaderName name : values()) {
            if (name.lower.length == length && name.matches(view, from)) {
                return name;
            }
        }
        return null;
    }

    private boolean matches(ByteView view, int from) {
        for (int i = 0; i < lower.length; i++) {
            if (toLower(view.at(from + i)) != lower[i]) {
                return false;
            }
        }
        return true;
    }

    private static int toLower(int b) {
        return b >= 'A' && b <= 'Z' ? b + 32 : b;
    }
}
