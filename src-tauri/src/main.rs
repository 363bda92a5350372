// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    // WebKitGTK composites through OpenGL; where that is software (virtual
    // machines, remote desktops, Xvfb) it made each repaint about three times
    // slower and cost 180 MB more (scripts/e2e --measure). Suanli draws forms
    // and 2-D charts, which need no compositing. A user's own setting wins.
    #[cfg(target_os = "linux")]
    if std::env::var_os("WEBKIT_DISABLE_COMPOSITING_MODE").is_none() {
        // SAFETY: the first statement of `main`, before any thread exists,
        // so nothing can read the environment while it changes.
        #[allow(unsafe_code)]
        unsafe {
            std::env::set_var("WEBKIT_DISABLE_COMPOSITING_MODE", "1");
        }
    }
    suanli_app::run();
}
