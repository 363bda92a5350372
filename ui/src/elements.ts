// The Element Plus components Suanli uses, each with its styles. Only these
// are bundled (`app.use(ElementPlus)` bundled and registered all of them);
// elements.test.ts checks that every <el-…> tag in the screens is here.
import type { App, Plugin } from "vue";
import {
  ElAlert, ElButton, ElCheckbox, ElCheckboxButton, ElCheckboxGroup, ElCollapse, ElCollapseItem,
  ElConfigProvider, ElDialog, ElDropdown, ElDropdownItem, ElDropdownMenu, ElForm, ElFormItem,
  ElInput, ElInputNumber, ElOption, ElProgress, ElRadio, ElRadioButton, ElRadioGroup, ElSelect, ElSwitch,
  ElTabPane, ElTable, ElTableColumn, ElTabs, ElTag, ElTooltip,
} from "element-plus";
import "element-plus/es/components/alert/style/css";
import "element-plus/es/components/button/style/css";
import "element-plus/es/components/checkbox/style/css";
import "element-plus/es/components/checkbox-button/style/css";
import "element-plus/es/components/checkbox-group/style/css";
import "element-plus/es/components/collapse/style/css";
import "element-plus/es/components/collapse-item/style/css";
import "element-plus/es/components/config-provider/style/css";
import "element-plus/es/components/dialog/style/css";
import "element-plus/es/components/dropdown/style/css";
import "element-plus/es/components/dropdown-item/style/css";
import "element-plus/es/components/dropdown-menu/style/css";
import "element-plus/es/components/form/style/css";
import "element-plus/es/components/form-item/style/css";
import "element-plus/es/components/input/style/css";
import "element-plus/es/components/input-number/style/css";
import "element-plus/es/components/message/style/css";
import "element-plus/es/components/message-box/style/css";
import "element-plus/es/components/option/style/css";
import "element-plus/es/components/progress/style/css";
import "element-plus/es/components/radio/style/css";
import "element-plus/es/components/radio-button/style/css";
import "element-plus/es/components/radio-group/style/css";
import "element-plus/es/components/select/style/css";
import "element-plus/es/components/switch/style/css";
import "element-plus/es/components/tab-pane/style/css";
import "element-plus/es/components/table/style/css";
import "element-plus/es/components/table-column/style/css";
import "element-plus/es/components/tabs/style/css";
import "element-plus/es/components/tag/style/css";
import "element-plus/es/components/tooltip/style/css";

/** Every component the screens use. */
const ELEMENTS: Plugin[] = [
  ElAlert, ElButton, ElCheckbox, ElCheckboxButton, ElCheckboxGroup, ElCollapse, ElCollapseItem,
  ElConfigProvider, ElDialog, ElDropdown, ElDropdownItem, ElDropdownMenu, ElForm, ElFormItem,
  ElInput, ElInputNumber, ElOption, ElProgress, ElRadio, ElRadioButton, ElRadioGroup, ElSelect, ElSwitch,
  ElTabPane, ElTable, ElTableColumn, ElTabs, ElTag, ElTooltip,
];

/** Registers the components (a plugin: `app.use(elements)`). */
export const elements: Plugin = { install: (app: App) => { for (const c of ELEMENTS) app.use(c); } };
