package net.hopwise.voip.relay;

import java.util.ArrayList;
import java.util.List;

/** SIP messages as test phones write and read them: SIPp-shaped requests and responses built from what arrived. */
final class SipText {
    private SipText() {}

    static final String SDP_A = sdp("127.0.0.1", 41000, "53655765", 1, "");
    static final String SDP_B = sdp("127.0.0.1", 40000, "98765", 1, "");

    static String sdp(String address, int port, String session, long version, String extra) {
        return "v=0\r\no=user1 " + session + " " + version + " IN IP4 " + address + "\r\ns=-\r\nc=IN IP4 " + address
                + "\r\nt=0 0\r\nm=audio " + port + " RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n" + extra;
    }

    static String request(String method, String uri, String branch, String fromTag, String toTag, String callId,
            int cseq, String extraHeaders, String body) {
        StringBuilder sb = new StringBuilder();
        sb.append(method).append(' ').append(uri).append(" SIP/2.0\r\n");
        sb.append("Via: SIP/2.0/UDP 127.0.0.1:5080;branch=").append(branch).append("\r\n");
        sb.append("From: sipp <sip:sipp@127.0.0.1:5080>;tag=").append(fromTag).append("\r\n");
        sb.append("To: bob <sip:bob@127.0.0.1:5070>").append(toTag == null ? "" : ";tag=" + toTag).append("\r\n");
        sb.append("Call-ID: ").append(callId).append("\r\n");
        sb.append("CSeq: ").append(cseq).append(' ').append(method.equals("ACK") || method.equals("CANCEL")
                ? method : method).append("\r\n");
        sb.append("Contact: <sip:sipp@127.0.0.1:5080>\r\n");
        sb.append("Max-Forwards: 70\r\n");
        sb.append(extraHeaders);
        return withBody(sb, body);
    }

    static String invite(String callId, String branch, String body) {
        return request("INVITE", "sip:bob@127.0.0.1:5070", branch, "tagA", null, callId, 1, "", body);
    }

    /** A response to {@code received} written as a UAS does: Vias, Record-Routes, From, To (tagged), Call-ID, CSeq copied. */
    static String response(String received, int status, String toTag, String body) {
        StringBuilder sb = new StringBuilder("SIP/2.0 " + status + " " + reason(status) + "\r\n");
        for (String line : headerLines(received)) {
            String name = line.substring(0, line.indexOf(':')).trim().toLowerCase();
            if (name.equals("via") || name.equals("record-route") || name.equals("from") || name.equals("call-id")
                    || name.equals("cseq")) {
                sb.append(line).append("\r\n");
            } else if (name.equals("to")) {
                sb.append(line).append(toTag != null && !line.contains("tag=") ? ";tag=" + toTag : "").append("\r\n");
            }
        }
        sb.append("Contact: <sip:bob@127.0.0.1:5070>\r\n");
        return withBody(sb, body);
    }

    static String withBody(StringBuilder headers, String body) {
        if (body != null && !body.isEmpty()) {
            headers.append("Content-Type: application/sdp\r\n");
        }
        int length = body == null ? 0 : body.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        headers.append("Content-Length: ").append(length).append("\r\n\r\n");
        if (body != null) {
            headers.append(body);
        }
        return headers.toString();
    }

    static List<String> headerLines(String message) {
        String head = message.substring(0, message.indexOf("\r\n\r\n"));
        String[] lines = head.split("\r\n");
        List<String> out = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            out.add(lines[i]);
        }
        return out;
    }

    static List<String> headers(String message, String name) {
        List<String> out = new ArrayList<>();
        for (String line : headerLines(message)) {
            int colon = line.indexOf(':');
            if (line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                out.add(line.substring(colon + 1).trim());
            }
        }
        return out;
    }

    static String header(String message, String name) {
        List<String> all = headers(message, name);
        return all.isEmpty() ? null : all.get(0);
    }

    static String body(String message) {
        return message.substring(message.indexOf("\r\n\r\n") + 4);
    }

    static String startLine(String message) {
        return message.substring(0, message.indexOf("\r\n"));
    }

    static String reason(int status) {
        return switch (status) {
            case 100 -> "Trying";
            case 180 -> "Ringing";
            case 183 -> "Session Progress";
            case 200 -> "OK";
            case 486 -> "Busy Here";
            case 487 -> "Request Terminated";
            default -> "Status";
        };
    }
}
