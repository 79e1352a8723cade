package net.hopwise.voip.sip;

/**
 * The CSeq header: a sequence number below 2^31 (RFC 3261 section 8.1.1.5) and the method it counts.
 */
public record CSeq(long number, String method) {
    private static final long LIMIT = 1L << 31;

    /** Null when the value is not {@code 1*DIGIT LWS Method}. */
    static CSeq parse(String value) {
        ValueReader r = new ValueReader(value.trim());
        String digits = r.token();
        if (digits == null || digits.length() > 10) {
            return null;
        }
        long number = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (!SipSyntax.isDigit(c)) {
                return null;
            }
            number = number * 10 + c - '0';
        }
        if (number >= LIMIT) {
            return null;
        }
        int before = r.position();
        r.skipLws();
        if (r.position() == before) {
            return null;
        }
        String method = r.token();
        return method != null && r.atEnd() ? new CSeq(number, method) : null;
    }
}
