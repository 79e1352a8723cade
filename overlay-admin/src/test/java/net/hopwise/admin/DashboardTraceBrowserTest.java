package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The routes table's trace buttons in a real headless Chromium, against the demo overlay. */
@DemoServiceTest
class DashboardTraceBrowserTest {
    @LocalServerPort
    int port;

    private WebDriver browser;

    @BeforeEach
    void openBrowser() {
        browser = Chromium.open();
    }

    @AfterEach
    void closeBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void aTraceShowsEachHopOfTheRouteUnderTheSelectedMetric() throws IOException {
        browser.get("http://localhost:" + port + "/");
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(40), Duration.ofMillis(200));
        // The page redraws every two seconds: an element read as it is replaced is read again next poll.
        wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
        // Expected latency counts the chord's 10% loss: denver is reached by edinburgh (5 + 40 ms, lossless),
        // not by the chord and chicago (32 ms at 10% loss, then 12).
        wait.until(b -> b.findElement(By.cssSelector("#metric button[data-metric='EXPECTED_LATENCY']"))).click();
        String denver = "#routes-table tr[data-destination='denver']";
        wait.withMessage("the route to denver by edinburgh under expected latency").until(b -> b.findElements(
                By.cssSelector(denver + " td[data-metric='EXPECTED_LATENCY'] .path")).stream()
                .anyMatch(p -> p.getText().equals("amsterdam → edinburgh → denver")));

        wait.withMessage("a trace to denver that reached it").until(b -> {
            String status = b.findElement(By.id("trace-status")).getText();
            if (status.startsWith("reached")) {
                return true;
            }
            if (!status.equals("tracing…")) {
                // Not asked yet, or a probe was lost on the way: ask (again).
                b.findElement(By.cssSelector(denver + " button.trace")).click();
            }
            return false;
        });
        assertThat(browser.findElement(By.id("trace-status")).getText()).isEqualTo("reached in 2 hops");
        assertThat(browser.findElement(By.id("trace-destination")).getText()).isEqualTo("denver");
        assertThat(browser.findElement(By.id("trace-metric")).getText()).isEqualTo("by expected latency");
        List<WebElement> rows = browser.findElements(By.cssSelector("#trace-table tbody tr"));
        assertThat(rows).extracting(r -> r.getDomAttribute("data-node")).containsExactly("edinburgh", "denver");
        for (int i = 0; i < rows.size(); i++) {
            WebElement row = rows.get(i);
            assertThat(text(row, "hop")).isEqualTo(String.valueOf(i + 1));
            assertThat(text(row, "link-cost")).matches("\\d+(\\.\\d+)? ms");
            assertThat(number(row, "link-rtt")).isPositive();
            assertThat(number(row, "round-trip")).isPositive();
        }
        // The probe to denver crossed 45 ms of delay each way.
        assertThat(number(rows.get(1), "round-trip")).isGreaterThan(80);
        ((JavascriptExecutor) browser).executeScript("document.getElementById('trace').scrollIntoView({block: 'end'})");
        screenshot("dashboard-trace.png");

        // Another metric, another trace: by hops each link costs 1.
        browser.findElement(By.cssSelector("#metric button[data-metric='HOPS']")).click();
        browser.findElement(By.cssSelector("#routes-table tr[data-destination='berlin'] button.trace")).click();
        wait.withMessage("a trace to berlin by hops").until(b ->
                b.findElement(By.id("trace-status")).getText().equals("reached in 1 hop")
                        && b.findElement(By.id("trace-metric")).getText().equals("by hops"));
        WebElement berlin = browser.findElement(By.cssSelector("#trace-table tbody tr[data-hop='1']"));
        assertThat(berlin.getDomAttribute("data-node")).isEqualTo("berlin");
        assertThat(text(berlin, "link-cost")).isEqualTo("1");
        assertThat(browser.findElements(By.cssSelector("#trace-table tbody tr"))).hasSize(1);
    }

    /** Keeps what the browser saw, for people reviewing a build. */
    private void screenshot(String name) throws IOException {
        if (browser instanceof TakesScreenshot camera) {
            Path target = Path.of("target", name);
            Files.createDirectories(target.getParent());
            Files.write(target, camera.getScreenshotAs(OutputType.BYTES));
        }
    }

    private static String text(WebElement row, String cls) {
        return row.findElement(By.cssSelector("td." + cls)).getText();
    }

    private static double number(WebElement row, String cls) {
        return Double.parseDouble(text(row, cls));
    }
}
