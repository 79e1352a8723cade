package net.hopwise.voip.sip;

import java.util.List;

/**
 * What a message must satisfy before the relay acts on it, beyond framing: the headers RFC 3261
 * section 8.1.1 makes mandatory, each at most once where the grammar says so (RFC 4475
 * "multi01", "mcl01"), and well-formed values in every header the relay reads (Via, From, To,
 * Call-ID, CSeq, Max-Forwards, Contact, Route, Record-Route). Headers the relay only forwards
 * (Date, Expires, Warning...) are not judged: a proxy passes them on (RFC 3261 section 16.6).
 */
final class SipMessageChecks {
    private static final SipHeaderName[] MANDATORY = {
        SipHeaderName.VIA, SipHeaderName.FROM, SipHeaderName.TO, SipHeaderName.CALL_ID, SipHeaderName.CSEQ
    };

    private SipMessageChecks() {}

    /** The first problem found, or null. */
    static SipParseError check(SipMessage m) {
        long seen = 0;
        for (int i = 0; i < m.headerCount(); i++) {
            SipHeaderName name = m.header(i);
            if (name != null && name.singleton()) {
                long bit = 1L << name.ordinal();
                if ((seen & bit) != 0) {
                    return SipParseError.DUPLICATE_HEADER;
                }
                seen |= bit;
            }
        }
        for (SipHeaderName name : MANDATORY) {
            if (m.indexOf(name) < 0) {
                return SipParseError.MISSING_HEADER;
            }
        }
        CSeq cseq = m.cseq();
        if (cseq == null) {
            return SipParseError.BAD_CSEQ;
        }
        if (m.isRequest() && !cseq.method().equals(m.method())) {
            return SipParseError.CSEQ_METHOD_MISMATCH;
        }
        if (m.indexOf(SipHeaderName.MAX_FORWARDS) >= 0 && m.maxForwards() < 0) {
            return SipParseError.BAD_MAX_FORWARDS;
        }
        String callId = m.callId();
        if (callId.isEmpty() || callId.indexOf(' ') >= 0 || callId.indexOf('\t') >= 0) {
            return SipParseError.BAD_HEADER;
        }
        if (m.from() == null || m.to() == null) {
            return SipParseError.BAD_HEADER;
        }
        List<Via> vias = m.vias();
        if (vias == null || vias.isEmpty()) {
            return SipParseError.BAD_HEADER;
        }
        if (m.contacts() == null || m.routes() == null || m.recordRoutes() == null) {
            return SipParseError.BAD_HEADER;
        }
        return null;
    }
}
