package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The call record's hand-written JSON: strings escaped whatever a SIP peer sent, read back by a real parser. */
class CallRecordJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String quoted(String s) {
        StringBuilder out = new StringBuilder();
        CallRecordJson.string(out, s);
        return out.toString();
    }

    @Test
    void quotesBackslashesAndControlCharactersAreEscapedAsRfc8259Requires() {
        assertThat(quoted("plain sip:bob@example.net;user=phone")).isEqualTo("\"plain sip:bob@example.net;user=phone\"");
        assertThat(quoted("a\"b\\c/d")).isEqualTo("\"a\\\"b\\\\c/d\"");
        assertThat(quoted("\n\r\t\b\f")).isEqualTo("\"\\n\\r\\t\\b\\f\"");
        assertThat(quoted("\u0000\u0001\u001f\u007f")).isEqualTo("\"\\u0000\\u0001\\u001f\\u007f\"");
        // Line and paragraph separators would end a line for JavaScript readers and some viewers.
        assertThat(quoted("x\u2028y\u2029z")).isEqualTo("\"x\\u2028y\\u2029z\"");
        assertThat(quoted(null)).isEqualTo("null");
    }

    @Test
    void textBeyondAsciiIsKeptAndALoneSurrogateIsEscapedSoTheLineStaysUtf8() {
        assertThat(quoted("sip:jörg@例え.jp 😀")).isEqualTo("\"sip:jörg@例え.jp 😀\"");
        assertThat(quoted("a\ud83dz")).isEqualTo("\"a\\ud83dz\"");
        assertThat(quoted("\ude00")).isEqualTo("\"\\ude00\"");
    }

    @Test
    void everyEscapedStringReadsBackAsItWas() throws Exception {
        for (String s : List.of("a\"b\\c", "\u0000\u001f\u007f\n\r\t\b\f", "x\u2028y", "jörg 😀", "tag=\"1\";\\\\",
                "\ud83d lone")) {
            assertThat(JSON.readTree(quoted(s)).textValue()).isEqualTo(s);
        }
    }

    @Test
    void numbersAreRoundedAndJsonHasNullForWhatIsNotANumber() {
        StringBuilder out = new StringBuilder();
        CallRecordJson.number(out, 4.4149, 2);
        out.append(' ');
        CallRecordJson.number(out, -1, 3);
        out.append(' ');
        CallRecordJson.number(out, 93.2, 2);
        out.append(' ');
        CallRecordJson.number(out, 1e-9, 3);
        out.append(' ');
        CallRecordJson.number(out, Double.NaN, 2);
        out.append(' ');
        CallRecordJson.number(out, Double.POSITIVE_INFINITY, 2);
        assertThat(out).hasToString("4.41 -1 93.2 0 null null");
    }

    @Test
    void addressesReadAsTheApiWritesThem() {
        assertThat(CallRecordJson.address(new InetSocketAddress("127.0.0.1", 40000))).isEqualTo("127.0.0.1:40000");
        assertThat(CallRecordJson.address(new InetSocketAddress("::1", 40000))).isEqualTo("[0:0:0:0:0:0:0:1]:40000");
        assertThat(CallRecordJson.address(null)).isNull();
    }

    @Test
    void aRecordIsOneLineOfTheCallsFieldsPlacedOnTheWallClock() throws Exception {
        StreamStatistics.Direction in = new StreamStatistics.Direction(96, 100, 4, 1, 2, 5, 0, 3.25, 12.5, 7);
        StreamStatistics.Direction out = new StreamStatistics.Direction(100, 100, 0, 0, 0, 5, 0, 1.0, -3.0);
        StreamStatistics stream = new StreamStatistics(0, 30000, 5000, new InetSocketAddress("127.0.0.1", 40000),
                null, "b", 6000, false, out, in, 100, 95, new RtcpReport(2, 10.15625, 9, 20), 4.0, 30.0, "PCMU/8000", 150.0);
        CallStatistics call = new CallStatistics("odd\"call\\id\n", "sip:a\"b@x", "sip:bob@y", "ENDED",
                "Phone[127.0.0.1:5080]", "Node[b]", 65_000, 30_000, "bye", List.of(stream));

        String line = CallRecordJson.line(call, "paris", Instant.parse("2026-11-26T20:01:35.123456Z"), 20);
        assertThat(line).doesNotContain("\n").doesNotContain("\r");
        JsonNode r = JSON.readTree(line);
        assertThat(r.get("node").asText()).isEqualTo("paris");
        assertThat(r.get("callId").asText()).isEqualTo("odd\"call\\id\n");
        assertThat(r.get("from").asText()).isEqualTo("sip:a\"b@x");
        // Ended 30 s before the record was taken, 65 s after it began; to the millisecond.
        assertThat(r.get("end").asText()).isEqualTo("2026-11-26T20:01:05.123Z");
        assertThat(r.get("start").asText()).isEqualTo("2026-11-26T20:00:00.123Z");
        assertThat(r.get("durationMs").asLong()).isEqualTo(65_000);
        assertThat(r.get("endReason").asText()).isEqualTo("bye");
        assertThat(r.get("accessDelayMs").asDouble()).isEqualTo(20.0);
        assertThat(r.get("rating").asDouble()).isCloseTo(call.rating(20), org.assertj.core.data.Offset.offset(0.005));
        assertThat(r.get("mos").asDouble()).isCloseTo(call.mos(20), org.assertj.core.data.Offset.offset(0.005));
        assertThat(r.get("phoneRating").asDouble()).isCloseTo(call.phoneRating(20),
                org.assertj.core.data.Offset.offset(0.005));
        assertThat(r.get("phoneMos").asDouble()).isCloseTo(call.phoneMos(20), org.assertj.core.data.Offset.offset(0.005));
        assertThat(r.get("phoneRttMs").asDouble()).isEqualTo(34.0);
        JsonNode s = r.get("streams").get(0);
        assertThat(s.get("advertised").asText()).isEqualTo("127.0.0.1:40000");
        assertThat(s.get("latched").isNull()).isTrue();
        assertThat(s.get("held").asBoolean()).isFalse();
        assertThat(s.get("codec").asText()).isEqualTo("PCMU/8000");
        assertThat(s.get("deadlineMs").asDouble()).isEqualTo(150.0);
        JsonNode toPhone = s.get("toPhone");
        assertThat(toPhone.get("expected").asLong()).isEqualTo(100);
        assertThat(toPhone.get("lost").asLong()).isEqualTo(4);
        assertThat(toPhone.get("recovered").asLong()).isEqualTo(7);
        assertThat(s.get("fromPhone").get("recovered").asLong()).isZero();
        assertThat(toPhone.get("late").asLong()).isEqualTo(1);
        assertThat(toPhone.get("duplicates").asLong()).isEqualTo(2);
        assertThat(toPhone.get("jitterMs").asDouble()).isEqualTo(3.25);
        assertThat(toPhone.get("meanTransitMs").asDouble()).isEqualTo(12.5);
        assertThat(toPhone.get("missedPercent").asDouble()).isEqualTo(5.0);
        assertThat(s.get("fromPhone").get("meanTransitMs").asDouble()).isEqualTo(-3.0);
        assertThat(s.get("phoneReport").get("fractionLostPercent").asDouble()).isEqualTo(10.156);
        assertThat(s.get("phoneReport").get("cumulativeLost").asLong()).isEqualTo(9);
        assertThat(s.get("rating").asDouble()).isEqualTo(r.get("rating").asDouble());
        assertThat(s.get("phoneRttMs").asDouble()).isEqualTo(34.0);
    }
}
