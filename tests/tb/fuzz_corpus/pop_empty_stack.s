sfppopc
