package net.hopwise.admin;

import java.io.File;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A headless Chromium for the dashboard's browser tests (Debian's chromium and chromium-driver, which
 * .ci/run installs). Without the browser the tests fail and say what to install: a dashboard test
 * that passes without a browser would prove nothing.
 */
final class Chromium {
    private Chromium() {}

    static WebDriver open() {
        File chromium = new File(System.getProperty("hopwise.chromium", "/usr/bin/chromium"));
        File driver = new File(System.getProperty("hopwise.chromedriver", "/usr/bin/chromedriver"));
        if (!chromium.canExecute() || !driver.canExecute()) {
            throw new AssertionError("the dashboard test needs Chromium at " + chromium + " and its driver at " + driver
                    + ": install them with `apt-get install chromium chromium-driver` (.ci/run does), or point"
                    + " -Dhopwise.chromium and -Dhopwise.chromedriver at them");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--window-size=1400,1250");
        // An explicit driver executable keeps Selenium Manager from trying to download one.
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driver)
                .usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }
}
