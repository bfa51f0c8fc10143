// Strings shared by the whole interface, in Simplified Chinese (keys: en/common.ts).
import type { Messages } from '../en/index.ts';

export const common: Messages['common'] = {
  language: '语言',
  languageTitle: '界面语言（默认跟随系统语言，也可以自行选择）',
  views: {
    label: '视图',
    live: '实时抓取',
    liveTitle: '各抓取线程的工作状态，以及每一行抓取结果',
    explorer: '结果浏览',
    explorerTitle: 'Screaming Frog 风格的筛选器（附计数），以及每个 URL 的全部详情',
    queue: '队列',
    queueTitle: '尚在队列中的 URL，按主机、路径前缀和文本查看；可排除某个模式',
    hosts: '主机',
    hostsTitle: '按主机统计：已抓取、排队中、字节数、错误、礼貌延迟和 robots.txt',
    reports: '报表',
    reportsTitle: '以图表展示状态码、深度、响应时间和吞吐量',
    compare: '对比',
    compareTitle: '同一站点的两次抓取：新增、移除和变化的 URL',
    structure: '站点结构',
    structureTitle: '以目录树展示抓取：每个目录的 URL、可索引性、状态和深度',
    running: '运行中',
    overview: '问题',
    overviewTitle: '发现的所有问题，按优先级排列，附 URL 数量、影响原因和修复方法',
    // crawl map (issue 18.6)
    crawlMap: '抓取地图',
    crawlMapTitle: '从种子出发的最短路径图，按可索引性或状态着色，按链接得分确定大小',
  },
};
