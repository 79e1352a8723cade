package net.hopwise.overlay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DaemonArgumentsTest {
    /** The options of a node the operator chose to run with unauthenticated links, for tests of the other options. */
    private static DaemonOptions parse(String... args) throws SetupException {
        List<String> all = new java.util.ArrayList<>(List.of(args));
        all.add("--insecure");
        return DaemonArguments.parse(all);
    }

    @Test
    void everyOptionIsParsed() throws SetupException {
        DaemonOptions o = parse("--bind", "127.0.0.1:8101", "--name", "b", "--neighbour", "a@127.0.0.1:8100",
                "--neighbor", "c@[::1]:8102", "--metrics", "127.0.0.1:9400", "--stats-interval", "5m",
                "--echo-port", "7", "--until-stdin-closes");
        assertThat(o.name()).isEqualTo("b");
        assertThat(o.bind()).isEqualTo(new InetSocketAddress(InetAddress.getLoopbackAddress(), 8101));
        assertThat(o.neighbours()).containsExactly(
                new NeighbourConfig("a", new InetSocketAddress("127.0.0.1", 8100)),
                new NeighbourConfig("c", new InetSocketAddress("::1", 8102)));
        assertThat(o.metrics()).isEqualTo(new InetSocketAddress("127.0.0.1", 9400));
        assertThat(o.statisticsInterval()).isEqualTo(Duration.ofMinutes(5));
        assertThat(o.echoPort()).isEqualTo(7);
        assertThat(o.untilStdinCloses()).isTrue();
        assertThat(o.trace()).isNull();
    }

    @Test
    void aTraceNamesItsDestinationAndTakesAMetricInAnyCaseAndAWaitForItsRoute() throws SetupException {
        DaemonOptions o = parse("--name", "a", "--neighbour", "b@127.0.0.1:8101", "--trace", "c", "--metric",
                "Expected_Latency", "--trace-wait", "500ms");
        assertThat(o.trace()).isEqualTo(new DaemonOptions.Trace("c", RoutingMetric.EXPECTED_LATENCY,
                Duration.ofMillis(500)));
        assertThat(parse("--name", "a", "--trace", "c", "--metric", "expected-latency").trace().metric())
                .isEqualTo(RoutingMetric.EXPECTED_LATENCY);
        DaemonOptions defaults = parse("--name", "a", "--trace", "c");
        // No metric: the node's default metric, which the node's configuration decides.
        assertThat(defaults.trace()).isEqualTo(new DaemonOptions.Trace("c", null, DaemonOptions.DEFAULT_TRACE_WAIT));
        assertThat(parse("--name", "a", "--trace", "c", "--trace-wait", "0").trace().routeWait()).isZero();
    }

    @Test
    void everyDaemonAnswersTraces() throws SetupException {
        assertThat(parse("--name", "a").nodeConfig(null).modules()).extracting(m -> m.name()).containsExactly("trace");
    }

    @Test
    void defaultsBindAllInterfacesOnTheWellKnownPortAndReportEveryMinute() throws SetupException {
        DaemonOptions o = parse("--name", "a");
        assertThat(o.bind()).isEqualTo(new InetSocketAddress(NodeConfig.DEFAULT_PORT));
        assertThat(o.bind().getAddress().isAnyLocalAddress()).isTrue();
        assertThat(o.neighbours()).isEmpty();
        assertThat(o.metrics()).isNull();
        assertThat(o.statisticsInterval()).isEqualTo(DaemonOptions.DEFAULT_STATISTICS_INTERVAL);
        assertThat(o.echoPort()).isZero();
        assertThat(o.untilStdinCloses()).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"0.0.0.0:8100, 8100", "[::]:8100, 8100", "*:9000, 9000", "8100, 8100", "0, 0"})
    void wildcardAndBarePortsBindEveryInterface(String spec, int port) throws SetupException {
        InetSocketAddress bind = parse("--name", "a", "--bind", spec).bind();
        assertThat(bind.getAddress().isAnyLocalAddress()).isTrue();
        assertThat(bind.getPort()).isEqualTo(port);
    }

    @ParameterizedTest
    @CsvSource({"30, PT30S", "30s, PT30S", "2m, PT2M", "1h, PT1H", "1500ms, PT1.5S", "0, PT0S", "off, PT0S"})
    void statisticsIntervals(String text, String expected) throws SetupException {
        assertThat(parse("--name", "a", "--stats-interval", text).statisticsInterval())
                .isEqualTo(Duration.parse(expected));
    }

    @Test
    void helpAsksForTheUsageWhateverElseIsThere() throws SetupException {
        assertThat(parse("--help")).isNull();
        assertThat(parse("--name", "a", "-h")).isNull();
        assertThat(DaemonArguments.USAGE).contains("--name", "--bind", "--neighbour", "--metrics", "--stats-interval",
                "--echo-port", "--until-stdin-closes", "--trace", "--metric ", "--trace-wait", "--help");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "--name a --frobnicate                   | unknown option --frobnicate",
            "--name a stray                          | unexpected argument 'stray'",
            "--name                                  | --name needs a value",
            "--name --bind 8100                      | --name needs a value",
            "--name a --neighbour                    | --neighbour needs a value",
            "--bind 8100                             | --name is required",
            "--name a --name b                       | --name is given twice",
            "--name a! --bind 8100                   | --name: invalid node name 'a!'",
            "--name a --neighbour b@nohost.invalid:8100 | --neighbour 'b@nohost.invalid:8100': host nohost.invalid does not resolve",
            "--name a --bind nohost.invalid:8100     | --bind 'nohost.invalid:8100': host nohost.invalid does not resolve",
            "--name a --bind 127.0.0.1:http          | --bind '127.0.0.1:http': port 'http' is not a number",
            "--name a --bind 127.0.0.1:70000         | --bind '127.0.0.1:70000': port 70000 is outside 0-65535",
            "--name a --bind 127.0.0.1:              | --bind '127.0.0.1:' has no port",
            "--name a --bind -1                      | --bind '-1' has no port",
            "--name a --metrics 99999                | --metrics '99999': port 99999 is outside 0-65535",
            "--name a --echo-port 0                  | --echo-port '0': port 0 is outside 1-65535",
            "--name a --echo-port seven              | --echo-port 'seven': port 'seven' is not a number",
            "--name a --neighbour b127.0.0.1:8100    | --neighbour 'b127.0.0.1:8100' is not of the form NAME@HOST:PORT",
            "--name a --neighbour @127.0.0.1:8100    | --neighbour '@127.0.0.1:8100' is not of the form NAME@HOST:PORT",
            "--name a --neighbour b@                 | --neighbour 'b@' is not of the form NAME@HOST:PORT",
            "--name a --neighbour b@127.0.0.1        | --neighbour 'b@127.0.0.1' has no port",
            "--name a --neighbour b@8100             | --neighbour 'b@8100' has no host",
            "--name a --neighbour b@:8100            | --neighbour 'b@:8100' has an empty host",
            "--name a --neighbour b@::1:8100         | --neighbour 'b@::1:8100': write an IPv6 address in brackets",
            "--name a --neighbour b@127.0.0.1:0      | --neighbour 'b@127.0.0.1:0': port 0 is outside 1-65535",
            "--name a --neighbour b@127.0.0.1:x1     | --neighbour 'b@127.0.0.1:x1': port 'x1' is not a number",
            "--name a --neighbour b!@127.0.0.1:8100  | --neighbour 'b!@127.0.0.1:8100': invalid node name 'b!'",
            "--name a --neighbour a@127.0.0.1:8100   | node a cannot be its own neighbour",
            "--name a --neighbour b@127.0.0.1:1 --neighbour b@127.0.0.1:2 | neighbour b is configured twice",
            "--name a --stats-interval soon          | --stats-interval 'soon' is not a duration",
            "--name a --stats-interval 500ms         | --stats-interval '500ms' is outside 1s-24h",
            "--name a --stats-interval 2d            | --stats-interval '2d' is not a duration",
            "--name a --trace                        | --trace needs a value",
            "--name a --trace b --trace c            | --trace is given twice",
            "--name a --trace b?                     | --trace: invalid node name 'b?'",
            "--name a --trace a                      | --trace a: a node does not trace itself",
            "--name a --metric hops                  | --metric only applies to --trace NODE",
            "--name a --trace-wait 5s                | --trace-wait only applies to --trace NODE",
            "--name a --trace b --metric fastest     | --metric 'fastest' is not one of hops, latency, loss, expected_latency",
            "--name a --trace b --metric hops --metric loss | --metric is given twice",
            "--name a --trace b --trace-wait soon    | --trace-wait 'soon' is not a duration",
            "--name a --trace b --trace-wait 2h      | --trace-wait '2h' is longer than 1h",
    })
    void mistakesAreNamedInOneLine(String line, String message) {
        String[] args = line.trim().split("\\s+");
        assertThatThrownBy(() -> parse(args))
                .isInstanceOf(SetupException.class)
                .hasMessageStartingWith(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
