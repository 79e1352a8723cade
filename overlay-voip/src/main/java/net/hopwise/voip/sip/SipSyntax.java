package net.hopwise.voip.sip;

/** Character classes of the RFC 3261 grammar (section 25.1), shared by the readers of this package. */
final class SipSyntax {
    private static final boolean[] TOKEN = new boolean[256];

    static {
        for (int c = 'a'; c <= 'z'; c++) {
            TOKEN[c] = true;
            TOKEN[c - 32] = true;
        }
        for (int c = '0'; c <= '9'; c++) {
            TOKEN[c] = true;
        }
        for (char c : "-.!%*_+`'~".toCharArray()) {
            TOKEN[c] = true;
        }
    }

    private SipSyntax() {}

    static boolean isToken(int b) {
        return b >= 0 && b < 256 && TOKEN[b];
    }

    static boolean isBlank(int b) {
        return b == ' ' || b == '\t';
    }

    static boolean isDigit(int b) {
        return b >= '0' && b <= '9';
    }

    static boolean isAlpha(int b) {
        return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
    }

    static boolean isToken(CharSequence s) {
        if (s.length() == 0) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!isToken(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** {@code scheme ":"} at the start of {@code uri} (RFC 3986 section 3.1); the scheme, or null. */
    static String scheme(String uri) {
        int colon = uri.indexOf(':');
        if (colon <= 0 || !isAlpha(uri.charAt(0))) {
            return null;
        }
        for (int i = 1; i < colon; i++) {
            char c = uri.charAt(i);
            if (!isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.') {
                return null;
            }
        }
        return uri.substring(0, colon);
    }
}
