//! Why a report could not be made, in either language.

use suanli_model::Lang;

/// Why no proposal or workbook was made. Nothing is written on an error.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The bundled font (regular or bold) cannot be parsed.
    #[error("{}", self.message(Lang::En))]
    Font {
        /// The face that failed.
        bold: bool,
    },
    /// The logo is not a PNG or JPEG the PDF can embed.
    #[error("{}", self.message(Lang::En))]
    Logo {
        /// The image decoder's words.
        problem: String,
    },
    /// The logo's size is outside 1–8000 pixels a side.
    #[error("{}", self.message(Lang::En))]
    LogoSize {
        /// Width, in pixels.
        width: usize,
        /// Height, in pixels.
        height: usize,
    },
    /// The scenario has no options to recommend from.
    #[error("{}", self.message(Lang::En))]
    NoOptions,
    /// A figure to be drawn in the PDF is not a finite number.
    #[error("{}", self.message(Lang::En))]
    NonFiniteDrawing,
    /// A workbook cell's number is not finite.
    #[error("{}", self.message(Lang::En))]
    NonFiniteCell {
        /// The sheet's name, as shown.
        sheet: String,
        /// Row, from 1.
        row: usize,
        /// Column, from 1.
        column: usize,
    },
    /// The XLSX writer refused the workbook.
    #[error("{}", self.message(Lang::En))]
    Xlsx(#[from] rust_xlsxwriter::XlsxError),
}

impl ReportError {
    /// The error as a reader of `lang` is told it.
    pub fn message(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            ReportError::Font { bold } => match (zh, bold) {
                (false, false) => "the embedded font cannot be read".into(),
                (false, true) => "the embedded bold font cannot be read".into(),
                (true, false) => "内置字体无法读取".into(),
                (true, true) => "内置粗体字体无法读取".into(),
            },
            ReportError::Logo { problem } if zh => format!("徽标不是可嵌入报告的 PNG 或 JPEG 图像（{problem}）"),
            ReportError::Logo { problem } => {
                format!("the logo is not a PNG or JPEG image this report can embed ({problem})")
            }
            ReportError::LogoSize { width, height } if zh => {
                format!("徽标为 {width}×{height} 像素；请使用不超过 8000×8000 的图像")
            }
            ReportError::LogoSize { width, height } => {
                format!("the logo is {width}×{height} pixels; use one of at most 8000×8000")
            }
            ReportError::NoOptions if zh => "方案没有任何选项".into(),
            ReportError::NoOptions => "the scenario has no options".into(),
            ReportError::NonFiniteDrawing if zh => "待绘制的数字不是有限数值；未生成 PDF".into(),
            ReportError::NonFiniteDrawing => "a figure to be drawn is not a finite number; no PDF was made".into(),
            ReportError::NonFiniteCell { sheet, row, column } if zh => {
                format!("工作表“{sheet}”第 {row} 行第 {column} 列的数字不是有限数值；未生成表格")
            }
            ReportError::NonFiniteCell { sheet, row, column } => {
                format!("{sheet} row {row}, column {column}: the number is not finite; no workbook was made")
            }
            ReportError::Xlsx(e) if zh => format!("无法写出 XLSX 文件：{e}"),
            ReportError::Xlsx(e) => format!("the XLSX file cannot be written: {e}"),
        }
    }
}
