// The keyboard shortcuts' strings, in Simplified Chinese (keys: en/shortcuts.ts).
import type { Messages } from '../en/index.ts';

export const shortcuts: Messages['shortcuts'] = {
  buttonTitle: '键盘快捷键（?）',
  button: '键盘快捷键',
  title: '键盘快捷键',
  close: '关闭',
  or: ' 或 ',
  note: '在输入框中输入时快捷键不起作用：请先按 Tab 键或点击输入框外部。按 Esc 关闭此列表。',
  actions: {
    start: '按“新建抓取”中的设置开始抓取',
    pauseResume: '暂停抓取，或继续抓取',
    stop: '停止抓取（各线程先完成手上的 URL）',
    filter: '聚焦当前视图的筛选框或搜索框',
    next: '下一个 URL',
    previous: '上一个 URL',
    detail: '打开 URL 详情（未选中时打开第一个 URL）',
    help: '显示或隐藏此列表',
  },
};
